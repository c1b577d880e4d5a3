import type { Caller } from "../../auth/bearer.ts";

/**
 * Whose request ids these are, for cancelling a call from another request: without sessions,
 * an anonymous caller is known only by its address; authenticated callers by their subject.
 */
export function callerKey(caller: Caller | undefined, headers: Headers): string {
  return caller ? `sub:${caller.subject}` : `ip:${headers.get("CF-Connecting-IP") ?? "local"}`;
}
