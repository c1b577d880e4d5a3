import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      "**/dist",
      ".wrangler",
      "worker/worker-configuration.d.ts",
      "test-results",
      "bench-results",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js"] })],
    },
    plugins: { "import-x": importX },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "import-x/no-cycle": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "ExportAllDeclaration",
          message: "Export names explicitly instead of `export *`.",
        },
      ],
    },
  },
  {
    // shared/ runs in browsers, Workers and Node; web/ may use shared/ but never worker/ or the
    // Node-only command line (cli/).
    files: ["shared/**/*.ts", "web/**/*.ts", "web/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/worker/**"], message: "shared/ and web/ must not import worker/." },
            { group: ["**/cli/**"], message: "shared/ and web/ must not import cli/ (Node only)." },
          ],
        },
      ],
    },
  },
);
