import type { TestProject } from "vitest/node";
import { startRelayTargets } from "./relay-targets.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Origin of the loopback servers the relay tests reach, e.g. http://127.0.0.1:40125 */
    relayTargets: string;
  }
}

/** Starts, for the workerd tests, the loopback servers the relay forwards to (in Node). */
export default async function setup(project: TestProject) {
  const targets = await startRelayTargets();
  project.provide("relayTargets", targets.origin);
  return () => targets.close();
}
