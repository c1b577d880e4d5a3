import { AuthError, type Authenticate, type Caller } from "../auth/bearer.ts";
import { callerIdentity } from "../mcp/durable.ts";
import type { Limits } from "../mcp/ports.ts";
import { TooManyRequests } from "./caller-limits.ts";

/** Failed authentications an address may make a minute before its credentials are refused unread. */
export const AUTH_FAILURES_PER_MINUTE = 30;
const MINUTE = 60_000;
/** Addresses this isolate saw fail lately: only their credentials are checked against the count. */
const failedLately = new Map<string, number>();
const REMEMBERED = 1024;

/**
 * Authenticates a request, counting the credentials that fail by the address they come from:
 * past `AUTH_FAILURES_PER_MINUTE`, a request carrying a credential gets 429 before it is
 * checked, so guessing tokens (or signing JWTs with made-up keys) is as slow as the limit. The
 * count is read only for addresses this isolate saw fail in the last minute, so a caller whose
 * token works costs no extra round trip.
 * Requests without a credential, and in-process calls (their caller was checked), are not counted.
 */
export async function countedAuthentication(
  authenticate: Authenticate,
  request: Request,
  env: Cloudflare.Env,
  limits: Limits,
  inProcess: boolean,
): Promise<Caller | undefined> {
  if (inProcess || !request.headers.has("Authorization"))
    return authenticate(request, env, { inProcess });
  const key = callerIdentity(undefined, request.headers);
  const budget = { key: "auth-failures", limit: AUTH_FAILURES_PER_MINUTE, windowMs: MINUTE };
  const failedAt = failedLately.get(key);
  if (failedAt !== undefined && Date.now() - failedAt < MINUTE) {
    const empty = await limits.take(key, [{ ...budget, peek: true }]);
    if (empty) throw refusal(empty.waitMs);
  }
  try {
    return await authenticate(request, env, { inProcess });
  } catch (error) {
    if (error instanceof AuthError && error.error === "invalid_token") {
      failedLately.delete(key);
      failedLately.set(key, Date.now());
      if (failedLately.size > REMEMBERED) failedLately.delete(failedLately.keys().next().value!);
      const empty = await limits.take(key, [budget]).catch(() => undefined);
      if (empty) throw refusal(empty.waitMs);
    }
    throw error;
  }
}

function refusal(waitMs: number): TooManyRequests {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new TooManyRequests(
    `Too many failed authentications from this address (at most ${AUTH_FAILURES_PER_MINUTE} a minute). Retry after ${seconds} s.`,
    waitMs,
  );
}
