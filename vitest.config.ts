import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { MIGRATIONS } from "./test/support/migrations.ts";
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
          include: ["test/worker/**/*.test.ts", "test/shared/**/*.test.ts"],
          setupFiles: ["test/worker/setup.ts"],
        },
      },
      {
        // The architecture lint (import cycles and layers), run on small trees of files.
        test: { name: "lint", include: ["test/lint/**/*.test.ts"], environment: "node" },
      },
      {
        // Official clients and conformance suites over real HTTP against `wrangler dev`.
        test: {
          name: "interop",
          include: ["test/interop/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/interop/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
