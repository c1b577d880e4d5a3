import type { FetchLike } from "../options.ts";
import { bearerChallenge } from "./challenge.ts";
import { failureEvent } from "./context.ts";
import { AuthError } from "./errors.ts";
import type { AuthSession } from "./session.ts";

/** A request's init with the bearer token set (or any stale one removed). */
function withToken(init: RequestInit, token: string | undefined): RequestInit {
  const headers = new Headers(init.headers);
  if (token === undefined) headers.delete("authorization");
  else headers.set("authorization", `Bearer ${token}`);
  return { ...init, headers };
}

/**
 * A fetch for the MCP client that signs in: each request carries the session's token; a 401
 * with a Bearer challenge (RFC 6750 §3) signs in (or refreshes) and retries once; a 403 `insufficient_scope` signs in again for more
 * scopes, at most `maxStepUps` times for one request. Other answers pass through untouched.
 */
export function authFetch(session: AuthSession, base: FetchLike): FetchLike {
  const maxStepUps = session.options.maxStepUps ?? 2;
  const report = session.options.onEvent;
  const failed = (error: AuthError): AuthError => {
    report?.(failureEvent(error));
    return error;
  };
  return async (url, init) => {
    let signedIn = false;
    let stepUps = 0;
    for (;;) {
      const sent = await session.accessToken();
      const response = await base(url, withToken(init, sent));
      if (response.status !== 401 && response.status !== 403) {
        if (signedIn || stepUps)
          report?.({
            step: "retry",
            status: "ok",
            url,
            httpStatus: response.status,
            summary: `The request went through with the new token (HTTP ${response.status}).`,
          });
        return response;
      }
      const challenge = await bearerChallenge(response);
      // A refusal without a Bearer challenge is not MCP authorization: it is the caller's to read.
      if (!challenge) return response;
      if (response.status === 401) {
        if (signedIn) {
          await response.body?.cancel();
          throw failed(
            new AuthError(
              "retry",
              "RFC 6750 §3.1",
              `${url} still answers 401 to the token its authorization server just issued.`,
              {
                fix: "The server's owner must accept the tokens its authorization server issues for this resource (check the audience and issuer it expects).",
                url,
                httpStatus: 401,
              },
            ),
          );
        }
        await response.body?.cancel();
        await session.unauthorized(challenge, sent);
        signedIn = true;
        continue;
      }
      if (challenge?.error !== "insufficient_scope") return response;
      await response.body?.cancel();
      if (stepUps >= maxStepUps) {
        throw failed(
          new AuthError(
            "retry",
            "MCP authorization: step-up",
            `${url} still answers 403 insufficient_scope after ${stepUps} sign-ins for more scopes (it asks for "${challenge.scope ?? ""}"); stopped to avoid an endless loop.`,
            {
              fix: "The server's owner must ask only for scopes its authorization server grants, and accept a token that carries them.",
              url,
              httpStatus: 403,
            },
          ),
        );
      }
      stepUps += 1;
      await session.stepUp(challenge, sent);
    }
  };
}
