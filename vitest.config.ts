import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { TEST_SECRETS } from "./test/support/secrets.ts";

const ANALYTICS_MIGRATIONS = "worker/servers/analytics/migrations";

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
                TEST_MIGRATIONS: await readD1Migrations(ANALYTICS_MIGRATIONS),
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/worker/setup.ts"],
        },
      },
      {
        // Official clients and conformance suites over real HTTP against `wrangler dev`.
        test: {
          name: "interop",
          include: ["test/interop/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/interop/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
