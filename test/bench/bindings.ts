import { randomBytes } from "node:crypto";

// edgemcp refuses to serve without a sealing secret; a fresh one per run is enough here.
const SECRET = randomBytes(32).toString("hex");

/** The bindings every bench Worker gets: how many no-op tools to generate, and the secret. */
export function workerBindings(tools: number): Record<string, string> {
  return { N_TOOLS: String(tools), EDGEMCP_SECRET: SECRET };
}
