// MCP authorization for the client, a separate entry point so that code that never signs in
// (servers, the page before a server asks) links none of it.
import type { FetchLike } from "../options.ts";
import { authFetch } from "./auth-fetch.ts";
import type { AuthOptions } from "./options.ts";
import { AuthSession } from "./session.ts";

export { AuthSession } from "./session.ts";
export type { AuthOptions } from "./options.ts";
export { AuthError, AUTH_STEPS, type AuthStepName } from "./errors.ts";
export type { AuthEvent, AuthObserver } from "./trace.ts";
export type { AuthorizationRequest, Interact, PendingSignIn } from "./authorize.ts";
export { readPendingSignIn } from "./pending.ts";
export { memoryStore, type AuthStore, type RegisteredClient, type TokenSet } from "./store.ts";

/**
 * Sign-in for one MCP server: pass `fetch` to `connect` and every request carries the session's
 * token, signing in when the server asks.
 */
export function withAuth(
  server: string | URL,
  options: AuthOptions,
): { session: AuthSession; fetch: FetchLike } {
  const session = new AuthSession(server, options);
  const base = options.fetch ?? ((url, init) => fetch(url, init));
  return { session, fetch: authFetch(session, base) };
}
