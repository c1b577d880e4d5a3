import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { MIGRATIONS } from "./test/support/migrations.ts";
import { TEST_LIMIT_VARS } from "./test/support/limits.ts";
import { TEST_SECRETS } from "./test/support/secrets.ts";

export default defineConfig({
  test: {
    projects: [
      {
        // Unit and integration tests inside workerd, against the Worker's own bindings.
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ...TEST_SECRETS,
                ...TEST_LIMIT_VARS,
                // Whether this is a CI run: test/worker/wire-schema.test.ts then insists on the
                // official schemas, whose absence elsewhere only skips the wire-schema checks.
                TEST_CI: process.env.CI ?? "",
                TEST_MIGRATIONS: {
                  ANALYTICS_DB: await readD1Migrations(MIGRATIONS.ANALYTICS_DB),
                  NOTES_DB: await readD1Migrations(MIGRATIONS.NOTES_DB),
                },
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/worker/setup.ts"],
          // Loopback servers (in Node) that the relay tests reach from workerd.
          globalSetup: ["test/support/worker-global-setup.ts"],
        },
      },
      {
        // The architecture lint (import cycles and layers), run on small trees of files.
        // ESLint's first run in a worker loads its plugins and the TypeScript parser: seconds
        // on a busy machine.
        test: {
          name: "lint",
          include: ["test/lint/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        // A user's Worker started by wrangler: what authoring mistakes look like at startup.
        test: {
          name: "startup",
          include: ["test/startup/**/*.test.ts"],
          environment: "node",
          testTimeout: 90_000,
        },
      },
      {
        // Pure code of shared/, web/ (schema forms, checks, curl, permalinks), the bench
        // harness (its settings and report), the soak's report and the READMEs' imports, in Node.
        test: {
          name: "unit",
          include: [
            "test/web/**/*.test.ts",
            "test/shared/**/*.test.ts",
            "test/bench/*.test.ts",
            "test/soak/*.test.ts",
            "test/docs/**/*.test.ts",
          ],
          // The playground's components need a DOM: they have a project of their own.
          exclude: ["test/web/views/**"],
          environment: "node",
        },
      },
      {
        // The edgemcp command run as a process (Node compiling it from source: a second or more
        // per start on a busy machine) against a closed port, a page that is not MCP or a
        // server nobody here wrote; no Worker.
        test: {
          name: "command",
          include: ["test/cli/unit/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The playground's components rendered by Preact into happy-dom (a DOM in Node, no
        // browser): the schema form's field kinds and the small widgets, given props only.
        test: {
          name: "components",
          include: ["test/web/views/**/*.test.ts"],
          environment: "happy-dom",
        },
      },
      {
        // The playground in Debian's Chromium against the running Worker.
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/interop/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // One Chromium, one page at a time: the machine has two cores.
          fileParallelism: false,
          // What the page shows after a request comes when the Worker, Chromium and the other
          // tests' processes have had their turn on two cores: vitest's 1 s for an expect.poll
          // is too short for that, and a poll that succeeds returns at once anyway.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
      {
        // Official clients, conformance suites, the edgemcp command and the checks, over real
        // HTTP against `wrangler dev`.
        test: {
          name: "interop",
          include: [
            "test/interop/**/*.test.ts",
            "test/cli/**/*.test.ts",
            "test/check/**/*.test.ts",
          ],
          // The command's tests that need no Worker have a project of their own.
          exclude: ["test/cli/unit/**"],
          environment: "node",
          globalSetup: ["test/interop/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The published packages: packed, installed into fresh projects, type-checked, built and
        // run (npm installs from the local cache, the registry as a fallback).
        test: {
          name: "package",
          include: ["test/package/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/package/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
