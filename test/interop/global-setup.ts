import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { unstable_startWorker } from "wrangler";
import { TEST_SECRETS } from "../support/secrets.ts";

const WRANGLER = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the Worker started for this run, e.g. http://127.0.0.1:40123 */
    workerUrl: string;
  }
}

/**
 * Starts the real Worker (wrangler's local runtime, workerd) on a free loopback port, with its
 * D1 database freshly migrated in a temporary state directory.
 */
export default async function setup(project: TestProject) {
  const state = await mkdtemp(join(tmpdir(), "edgemcp-interop-"));
  for (const database of ["ANALYTICS_DB", "NOTES_DB"]) {
    const args = [
      WRANGLER,
      "d1",
      "migrations",
      "apply",
      database,
      "--local",
      "--persist-to",
      state,
    ];
    execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  }

  const worker = await unstable_startWorker({
    config: "wrangler.toml",
    bindings: Object.fromEntries(
      Object.entries(TEST_SECRETS).map(([name, value]) => [name, { type: "secret_text", value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      logLevel: "warn",
      persist: state,
    },
  });
  await worker.ready;
  const url = await worker.url;
  project.provide("workerUrl", url.origin);
  return async () => {
    await worker.dispose();
    await rm(state, { recursive: true, force: true });
  };
}
