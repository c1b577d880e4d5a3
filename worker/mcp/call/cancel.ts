import type { Caller } from "../../auth/bearer.ts";

/**
 * Whose request ids these are, for cancelling a call from another request: the server, and
 * the caller's subject or, without sessions, an anonymous caller's address. A cancellation
 * never reaches a call of another server.
 */
export function callerKey(server: string, caller: Caller | undefined, headers: Headers): string {
  const who = caller ? `sub:${caller.subject}` : `ip:${headers.get("CF-Connecting-IP") ?? "local"}`;
  return `${server}\n${who}`;
}
