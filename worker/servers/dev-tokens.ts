import { isLocalRequest } from "../state/keyring.ts";

/**
 * Tokens published with this project (`.dev.vars.example`, and the test suite's): anyone may
 * know them, so offering them to the playground reveals nothing.
 */
const PUBLISHED_TOKENS: ReadonlyMap<string, string> = new Map([
  ["dev-token-alice", "alice"],
  ["dev-token-bob", "bob"],
  ["token-alice", "alice"],
  ["token-bob", "bob"],
]);

/**
 * The development tokens the playground may offer: only to a request sent to localhost, and
 * only when every token of `API_TOKENS` is a published example one (a deployment with real
 * tokens, or a local Worker with any token of its own, offers none).
 */
export function publishedDevTokens(
  apiTokens: string | undefined,
  request: Request,
): { subject: string; token: string }[] | undefined {
  if (!apiTokens || !isLocalRequest(request)) return undefined;
  const entries = apiTokens
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf("=");
      return { token: entry.slice(0, eq).trim(), subject: entry.slice(eq + 1).trim() };
    });
  const published = entries.every(
    ({ token, subject }) => PUBLISHED_TOKENS.get(token) === subject.split(":")[0],
  );
  return published && entries.length ? entries : undefined;
}
