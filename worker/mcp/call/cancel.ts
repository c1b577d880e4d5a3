import type { Caller } from "../../auth/bearer.ts";

/**
 * Who is calling, across endpoints: the caller's subject or, without sessions, an anonymous
 * caller's address (what rates and caps are counted against).
 */
export function callerIdentity(caller: Caller | undefined, headers: Headers): string {
  return caller ? `sub:${caller.subject}` : `ip:${headers.get("CF-Connecting-IP") ?? "local"}`;
}

/**
 * Whose request ids these are, for cancelling a call from another request: the server and the
 * caller's identity. A cancellation never reaches a call of another server.
 */
export function callerKey(server: string, caller: Caller | undefined, headers: Headers): string {
  return `${server}\n${callerIdentity(caller, headers)}`;
}
