import type { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { AuthError, type Authenticate, type Caller } from "../auth/bearer.ts";
import { stepUpScope } from "../auth/step-up.ts";
import { HttpError } from "../http/http-error.ts";
import type { SignInOptions } from "./options.ts";
import { PATHS } from "./server.ts";

// The authorization server's tokens are `user:grant:secret`; anything else is for `next`.
const ISSUED_TOKEN = /^Bearer +([^\s:]+:[^\s:]+:[A-Za-z0-9_-]+) *$/i;

// Tokens checked at an endpoint in the last minute, for the in-process calls the hub makes with
// its caller's token to the servers of this Worker: the hub's endpoint checked the audience (a
// token for the hub, not for them), so they take its word, as they do for a JWT. One list per
// sign-in, shared by every authenticator made from it.
const RECENT_MS = 60_000;
const MAX_RECENT = 256;

/** The tokens a sign-in's endpoints checked lately, and the callers they made. */
export type RecentTokens = Map<string, { caller: Caller; until: number }>;

/**
 * Callers with a token from this Worker's authorization server, for the endpoint the request
 * was sent to (its audience): the subject is the signed-in user, the scopes the token's, the
 * roles and props what sign-in stored. Other credentials go to `next` (static tokens, JWTs).
 */
export function issuedTokens(
  options: SignInOptions,
  serverFor: (origin: string) => OAuthAuthorizationServer,
  recent: RecentTokens,
  next?: Authenticate,
): Authenticate {
  const authenticate: Authenticate = async (request, env, context) => {
    const header = request.headers.get("Authorization");
    const token = header === null ? undefined : ISSUED_TOKEN.exec(header)?.[1];
    if (token === undefined) return next ? next(request, env, context) : undefined;
    if (context?.inProcess) {
      const known = recent.get(token);
      if (known && known.until > Date.now()) return known.caller;
      throw new AuthError("The bearer token is not valid for this MCP endpoint.", "invalid_token");
    }
    if (typeof Reflect.get(env, "OAUTH_KV") !== "object")
      throw new HttpError(
        500,
        "Server misconfigured: sign-in needs a KV namespace bound as OAUTH_KV (wrangler.toml, [[kv_namespaces]]).",
      );
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, "");
    const endpoint = options.endpoints.find((candidate) => candidate.path === path);
    const validated = endpoint
      ? await serverFor(url.origin).validateToken(url.origin + path, token, env)
      : null;
    if (!endpoint || !validated)
      throw new AuthError(
        "The bearer token is not valid for this MCP endpoint: unknown, expired or revoked, or issued for another endpoint.",
        "invalid_token",
      );
    const missing = (endpoint.baseline ?? []).filter((scope) => !validated.scope.includes(scope));
    if (missing.length > 0) throw baselineMissing(endpoint.baseline ?? [], request.url);
    const props = isRecord(validated.props) ? validated.props : {};
    const roles = Array.isArray(props.roles)
      ? props.roles.filter((role): role is string => typeof role === "string")
      : [];
    const caller: Caller = {
      subject: validated.userId,
      roles,
      scopes: validated.scope,
      props,
      credential: header ?? "",
      localCredential: true,
    };
    if (recent.size >= MAX_RECENT) recent.delete(recent.keys().next().value ?? "");
    recent.set(token, { caller, until: Date.now() + RECENT_MS });
    return caller;
  };
  // Sign-in is a credential once its KV namespace is bound: from then on, anonymous callers get
  // only what each endpoint allows them.
  authenticate.configured = (env) =>
    typeof Reflect.get(env, "OAUTH_KV") === "object" || (next?.configured?.(env) ?? false);
  authenticate.stepUp = stepUpScope;
  return authenticate;
}

function baselineMissing(baseline: readonly string[], url: string): HttpError {
  const parsed = new URL(url);
  const metadata = `${parsed.origin}${PATHS.resourceMetadata}${parsed.pathname.replace(/\/+$/, "")}`;
  return new HttpError(403, "The token lacks the scopes every call to this endpoint needs.", {
    "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${baseline.join(" ")}", resource_metadata="${metadata}"`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
