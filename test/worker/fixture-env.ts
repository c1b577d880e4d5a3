import { env } from "cloudflare:workers";

/**
 * The bindings a server defined in a test runs with: the test Worker's own, without the project
 * Worker's `MCP_POLICY` (its rules are for the project's servers, and a server that links no
 * policy engine refuses to serve while the variable is set). A test of the policy sets it again.
 */
// (Env types each [vars] entry as its literal value, hence the cast.)
export const fixtureEnv = { ...env, MCP_POLICY: "" } as unknown as Cloudflare.Env;
