import { AuthError, tokenEntries, type Authenticate } from "../auth/bearer.ts";
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
  // Read as bearerTokens reads API_TOKENS: an entry it skips is no token of the deployment.
  const entries = tokenEntries(apiTokens);
  const published = entries.every(({ token, subject }) => PUBLISHED_TOKENS.get(token) === subject);
  return published && entries.length > 0
    ? entries.map(({ subject, token }) => ({ subject, token }))
    : undefined;
}

/**
 * `authenticate`, refusing the published tokens on a request that is not to localhost: anyone
 * may read them, so outside development they are as good as none (like the example secret).
 * A call the hub makes in-process was checked at the hub's own endpoint.
 */
export function refusingPublishedTokens(authenticate: Authenticate): Authenticate {
  const refusing: Authenticate = (request, env, context) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
    if (token && PUBLISHED_TOKENS.has(token) && !context?.inProcess && !isLocalRequest(request))
      throw new AuthError(
        "This token is published with edgemcp for local development and works only on localhost; " +
          "set real tokens with `npx wrangler secret put API_TOKENS`.",
        "invalid_token",
      );
    return authenticate(request, env, context);
  };
  if (authenticate.configured) refusing.configured = authenticate.configured;
  if (authenticate.stepUp) refusing.stepUp = authenticate.stepUp;
  return refusing;
}
