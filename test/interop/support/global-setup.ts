import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { unstable_startWorker } from "wrangler";
import { TEST_SECRETS } from "../../support/secrets.ts";
import { startSdkUpstream } from "./sdk-upstream.ts";

const WRANGLER = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the Worker started for this run, e.g. http://127.0.0.1:40123 */
    workerUrl: string;
    /** The external SDK-built server the hub aggregates as "ext", e.g. http://127.0.0.1:40124/mcp */
    sdkServerUrl: string;
  }
}

/**
 * Starts the real Worker (wrangler's local runtime, workerd) on a free loopback port, with its
 * D1 database freshly migrated in a temporary state directory, and the external SDK-built server
 * its hub reaches over HTTP as the upstream "ext".
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

  const sdkServer = await startSdkUpstream();
  const hubUpstreams = JSON.stringify([{ name: "ext", url: sdkServer.url }]);
  const worker = await unstable_startWorker({
    config: "wrangler.toml",
    bindings: {
      ...Object.fromEntries(
        Object.entries(TEST_SECRETS).map(([name, value]) => [name, { type: "secret_text", value }]),
      ),
      HUB_UPSTREAMS: { type: "plain_text", value: hubUpstreams },
    },
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
  project.provide("sdkServerUrl", sdkServer.url);
  return async () => {
    await worker.dispose();
    await sdkServer.close();
    await rm(state, { recursive: true, force: true });
  };
}
