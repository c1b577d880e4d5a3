import type { TestProject } from "vitest/node";
import { unstable_startWorker } from "wrangler";
import { TEST_SECRETS } from "../support/secrets.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the Worker started for this run, e.g. http://127.0.0.1:40123 */
    workerUrl: string;
  }
}

/** Starts the real Worker (wrangler's local runtime, workerd) on a free loopback port. */
export default async function setup(project: TestProject) {
  const worker = await unstable_startWorker({
    config: "wrangler.toml",
    bindings: Object.fromEntries(Object.entries(TEST_SECRETS).map(([name, value]) => [name, { type: "secret_text", value }])),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, logLevel: "warn" },
  });
  await worker.ready;
  const url = await worker.url;
  project.provide("workerUrl", url.origin);
  return async () => {
    await worker.dispose();
  };
}
