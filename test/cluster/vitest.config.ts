import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// npm run test:cluster: the cross-process tests, each file with a cluster of its own (a Durable
// Object host and two or three Worker processes). One file at a time: the machine is small.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "cluster",
    include: ["test/cluster/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/cluster/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
