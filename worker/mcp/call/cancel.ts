import type { Caller } from "../../auth/bearer.ts";

/**
 * Who is calling, across endpoints: the caller's subject or, without sessions, an anonymous
 * caller's address (what rates and caps are counted against).
 */
export function callerIdentity(caller: Caller | undefined, headers: Headers): string {
  return caller ? `sub:${caller.subject}` : `ip:${headers.get("CF-Connecting-IP") ?? "local"}`;
}

/**
 * Whose request ids these are, for cancelling a call from another request: the server, and the
 * caller's subject or, for an anonymous caller, its address and the session id its 2025
 * `initialize` was given (`sessionId`, read by the era). Request ids are small integers that
 * collide, and callers behind one address (an office NAT) share it, so the address alone would
 * let one anonymous caller cancel another's calls: without a session id there is no key (the
 * call cannot be cancelled by another request, and a cancel reaches nothing). A cancellation
 * never reaches a call of another server.
 */
export function cancellationKey(
  server: string,
  caller: Caller | undefined,
  headers: Headers,
  sessionId: string | undefined,
): string | undefined {
  if (caller) return `${server}\n${callerIdentity(caller, headers)}`;
  if (sessionId === undefined) return undefined;
  return `${server}\n${callerIdentity(undefined, headers)}\n${sessionId}`;
}
