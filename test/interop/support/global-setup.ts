import type { TestProject } from "vitest/node";
import { startWorker } from "../../support/start-worker.ts";
import { startSdkUpstream } from "./sdk-upstream.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the Worker started for this run, e.g. http://127.0.0.1:40123 */
    workerUrl: string;
    /** The external SDK-built server the hub aggregates as "ext", e.g. http://127.0.0.1:40124/mcp */
    sdkServerUrl: string;
  }
}

/**
 * Starts the real Worker on a free loopback port (see startWorker) and the external SDK-built
 * server its hub reaches over HTTP as the upstream "ext".
 */
export default async function setup(project: TestProject) {
  const sdkServer = await startSdkUpstream();
  const worker = await startWorker({
    HUB_UPSTREAMS: JSON.stringify([{ name: "ext", url: sdkServer.url }]),
    // As `npm start` runs it (.dev.vars.example): the relay reaches loopback test servers.
    RELAY_DEV: "on",
  });
  project.provide("workerUrl", worker.url.origin);
  project.provide("sdkServerUrl", sdkServer.url);
  return async () => {
    await worker.stop();
    await sdkServer.close();
  };
}
