import fs from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import ts from "typescript";

/** A rule's visitors for every place a module names another: imports, re-exports, import(), import types. */
function importVisitors(check) {
  return {
    ImportDeclaration: (node) => check(node.source),
    ExportNamedDeclaration: (node) => check(node.source),
    ExportAllDeclaration: (node) => check(node.source),
    ImportExpression: (node) => check(node.source),
    TSImportType: (node) => check(node.argument?.literal ?? node.source),
  };
}

// Every relative import of a file, type-only ones included, resolved to a path (cached per run).
const importsOf = new Map();
function imports(file) {
  let found = importsOf.get(file);
  if (!found) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    found = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((entry) => resolve(file, entry.fileName))
      .filter((target) => target !== undefined);
    importsOf.set(file, found);
  }
  return found;
}
function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find(
    (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
  );
}
/** The chain of files from `start` back to `file`, when there is one. */
function pathBack(start, file) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === file) {
      const chain = [];
      for (let at = current; at !== undefined; at = previous.get(at)) chain.unshift(at);
      return chain;
    }
    for (const next of imports(current)) {
      if (previous.has(next)) continue;
      previous.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}

// `import-x/no-cycle` skips type-only imports; a cycle through types still ties modules together.
const noCycle = {
  meta: {
    type: "problem",
    messages: { cycle: "Import cycle (type imports included): {{chain}}" },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const check = (node) => {
      const specifier = node?.value;
      if (typeof specifier !== "string") return;
      const target = resolve(file, specifier);
      const chain = target && pathBack(target, file);
      if (!chain) return;
      const shown = [file, ...chain].map((f) => path.relative(context.cwd, f)).join(" → ");
      context.report({ node, messageId: "cycle", data: { chain: shown } });
    };
    return importVisitors(check);
  },
};

// worker/mcp's folders (and its files at the top level) from the foot up: each may import only
// what stands below it, so the vocabulary at the foot (observe/ to context/) imports nothing built
// on it, and a new folder must be given its place here before anything imports it.
const RUNTIME_FLOORS = [
  "observe",
  "schema",
  "results",
  "input",
  "context",
  "ports.ts",
  "listen",
  "define",
  "catalog",
  "server",
  "methods",
  "era",
  "request",
  "call",
  "tasks",
  "runtime.ts",
  "pipeline.ts",
  "durable.ts",
  "handler",
  "dispatch.ts",
  "handler.ts",
  "hono.ts",
  "index.ts",
];
/**
 * A rule keeping the floors of one folder (`folder`, relative to the repository): a file on a
 * floor of `floors` may import only from its own part or the floors below it. `partOf` names the
 * part of the folder a file belongs to; `hint` says how to mend an import that runs up.
 */
function floorsRule({ folder, floors, listName, partOf, hint }) {
  const checkedOut = path.resolve(import.meta.dirname, folder);
  const part = (file, root) => {
    const inside = path.relative(root, file);
    if (inside.startsWith("..") || path.isAbsolute(inside)) return undefined;
    return partOf(inside.split(path.sep));
  };
  return {
    meta: {
      type: "problem",
      messages: {
        up: `${folder}/{{from}} stands below ${folder}/{{to}} (${listName} in eslint.config.js): ${hint}`,
        unplaced: `${folder}/{{to}} has no floor: add it to ${listName} in eslint.config.js, above what it imports.`,
      },
      schema: [],
    },
    create(context) {
      const file = context.physicalFilename;
      // The checked-out tree's folder, or one under the linted folder (the lint tests' trees).
      const root = [checkedOut, path.join(context.cwd, folder)].find((r) => part(file, r));
      const from = root && part(file, root);
      const floor = floors.indexOf(from);
      if (floor < 0) return {};
      const check = (node) => {
        const specifier = node?.value;
        const target = typeof specifier === "string" && resolve(file, specifier);
        const to = target && part(target, root);
        if (!to || to === from) return;
        const other = floors.indexOf(to);
        if (other < 0) context.report({ node, messageId: "unplaced", data: { to } });
        else if (other > floor) context.report({ node, messageId: "up", data: { from, to } });
      };
      return importVisitors(check);
    },
  };
}
// worker/mcp: a file's part is its first folder, or its name at the top.
const runtimeFloors = floorsRule({
  folder: "worker/mcp",
  floors: RUNTIME_FLOORS,
  listName: "RUNTIME_FLOORS",
  partOf: ([first]) => first,
  hint: "move what it needs down, or the importer up.",
});

// web/src from the foot up: pure code, the small widgets (props only, so they stand below state),
// state, then the other views' folders (each may import only those below it, the shell that lays
// out the page at the top), then the entry. A new views folder must be given its place here
// before anything imports it.
const PLAYGROUND_FLOORS = [
  "lib",
  "views/widgets",
  "state",
  "views/form",
  "views/sign-in",
  "views/call",
  "views/connection",
  "views/catalog",
  "views/request",
  "views/panes",
  "views/check",
  "views/shell",
  "main.tsx",
];
// web/src: a file's part is its first folder (under views/, its second).
const playgroundFloors = floorsRule({
  folder: "web/src",
  floors: PLAYGROUND_FLOORS,
  listName: "PLAYGROUND_FLOORS",
  partOf: ([first, second]) =>
    first === "views" && second !== undefined ? `views/${second}` : first,
  hint: "move what it needs down (state to state/, pure code to lib/, a shared widget to views/widgets), or the importer up.",
});

const noExportAll = {
  selector: "ExportAllDeclaration",
  message: "Export names explicitly instead of `export *`.",
};
// Era differences live in the era folders (worker/mcp/era, shared/client/era, shared/check/era):
// everywhere else asks the era object instead of comparing its name.
const ERA_NAME = "/^(modern|legacy)$/";
const eraMessage =
  "Compare eras only in an era folder (**/era/**): ask the era object what differs instead.";
const noEraComparison = [
  {
    selector: `BinaryExpression[operator=/^[!=]==?$/]:matches([left.value=${ERA_NAME}], [right.value=${ERA_NAME}])`,
    message: eraMessage,
  },
  { selector: `SwitchCase[test.value=${ERA_NAME}]`, message: eraMessage },
];

// A getter or setter in an object literal makes V8 build that object as a slow dictionary: made
// per request (a call's context, a framed message), creating and spreading one cost about a
// hundred times a plain object. A class getter costs nothing of the kind.
const noLiteralAccessor = {
  selector: "ObjectExpression > Property[kind=/^(get|set)$/]",
  message:
    "No getter or setter in an object literal (V8 makes the object a slow dictionary): use a class getter, or a plain value.",
};

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      "**/dist",
      "web/dist",
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
    plugins: {
      "import-x": importX,
      local: {
        rules: {
          "no-cycle": noCycle,
          "runtime-floors": runtimeFloors,
          "playground-floors": playgroundFloors,
        },
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "import-x/no-cycle": "error",
      "local/no-cycle": "error",
      "local/runtime-floors": "error",
      "local/playground-floors": "error",
      "no-restricted-syntax": ["error", noExportAll, noLiteralAccessor, ...noEraComparison],
    },
  },
  {
    files: ["**/era/**"],
    rules: { "no-restricted-syntax": ["error", noExportAll, noLiteralAccessor] },
  },
  ...layers({
    // shared/ runs in browsers, Workers and Node; web/ may use shared/ but nothing else (cli/ is
    // the Node-only command line).
    "shared/**/*.ts": [
      ["worker", "shared/ must not import worker/."],
      ["cli", "shared/ must not import cli/ (Node only)."],
      ["web", "shared/ must not import web/ (the playground builds on shared/, not the reverse)."],
      ["test", "shared/ must not import test/."],
    ],
    "web/**/*.{ts,tsx}": [
      ["worker", "web/ must not import worker/."],
      ["cli", "web/ must not import cli/ (Node only)."],
      ["test", "web/ must not import test/."],
    ],
    // The lower layers of the Worker know nothing of the MCP runtime above them.
    "worker/{state,auth,http}/**/*.ts": [
      ["mcp", "state/, auth/ and http/ must not import the MCP runtime."],
      ["durable", "state/, auth/ and http/ must not import durable/."],
      ["hub", "state/, auth/ and http/ must not import hub/."],
      ["servers", "state/, auth/ and http/ must not import servers/."],
      ["oauth", "state/, auth/ and http/ must not import oauth/ (sign-in builds on them)."],
    ],
    // The runtime declares ports (worker/mcp/ports.ts); durable/ implements them, not the reverse.
    "worker/mcp/**/*.ts": [
      ["durable", "worker/mcp must not import worker/durable: declare a port in ports.ts."],
      ["hub", "worker/mcp must not import worker/hub."],
      ["servers", "worker/mcp must not import worker/servers."],
      ["oauth", "worker/mcp must not import worker/oauth: sign-in is linked only where used."],
    ],
    // The Durable Objects reach the runtime through its ports and what it lists for them.
    "worker/durable/**/*.ts": [
      [
        "mcp(?!/(ports|durable)\\.ts$)",
        "durable/ reaches the runtime through worker/mcp/ports.ts and worker/mcp/durable.ts only.",
      ],
      ["hub", "durable/ must not import worker/hub."],
      ["servers", "durable/ must not import worker/servers."],
    ],
    // The hub is built on the public server API, as a third-party proxy would be.
    "worker/hub/**/*.ts": [
      [
        "mcp(?!/index\\.ts$)",
        "The hub uses the public server API: import worker/mcp/index.ts only.",
      ],
      ["durable", "The hub must not import worker/durable."],
      ["servers", "The hub must not import worker/servers."],
    ],
  }),
);

/**
 * Import rules per folder: each entry forbids relative imports from a folder (a regex for its
 * name, matched where a path segment starts), type-only imports included.
 */
function layers(rules) {
  return Object.entries(rules).map(([files, forbidden]) => ({
    files: [files],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: forbidden.map(([folder, message]) => ({
            regex: `^(\\.\\.?/)+(.*/)?${folder}/`,
            message,
          })),
        },
      ],
    },
  }));
}
