import * as oauth from "oauth4webapi";

/** What a 401 or 403 asked for: its Bearer challenge's parameters, when it sent one. */
export type BearerChallenge = {
  /** `resource_metadata`: where the protected resource metadata is (RFC 9728 §5.1). */
  resourceMetadata?: string;
  /** `scope`: the scopes the request needs (RFC 6750 §3). */
  scope?: string;
  /** `error`, e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
};

const ANY_URL = new URL("http://challenge.invalid/");

/**
 * The Bearer challenge of a response's `WWW-Authenticate`. oauth4webapi parses challenges only
 * while processing a protected resource's response, so the response we already hold is given to
 * it as that request's answer (nothing is sent); its parser handles quoting and lists.
 */
export async function bearerChallenge(response: Response): Promise<BearerChallenge | undefined> {
  if (!response.headers.has("www-authenticate")) return undefined;
  const headersOnly = new Response(null, { status: response.status, headers: response.headers });
  let challenges: oauth.WWWAuthenticateChallenge[] = [];
  try {
    await oauth.protectedResourceRequest("-", "GET", ANY_URL, undefined, undefined, {
      [oauth.customFetch]: () => Promise.resolve(headersOnly),
      [oauth.allowInsecureRequests]: true,
    });
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError) challenges = error.cause;
  }
  const bearer = challenges.find((challenge) => challenge.scheme === "bearer");
  if (!bearer) return undefined;
  const { resource_metadata, scope, error } = bearer.parameters;
  return {
    ...(resource_metadata ? { resourceMetadata: resource_metadata } : {}),
    ...(scope ? { scope } : {}),
    ...(error ? { error } : {}),
  };
}
