import { readVar } from "../env-vars.ts";
import { HttpError } from "../http/http-error.ts";
import type { Caller } from "./caller.ts";
import type { StepUp } from "./access.ts";

export type { Caller } from "./caller.ts";

/**
 * Establishes the caller of a request: a Caller, undefined for a request without a credential,
 * or an AuthError for a bad one (answered 401 with the endpoint's challenge). `configured`
 * says whether the deployment has any credential set: once it does, requests without one are
 * refused unless the endpoint lets anonymous callers in (a function without it counts as
 * configured: fail closed).
 */
export type Authenticate = {
  (
    request: Request,
    env: Cloudflare.Env,
    context?: AuthContext,
  ): Promise<Caller | undefined> | Caller | undefined;
  configured?: (env: Cloudflare.Env) => boolean;
  /** For authenticators whose callers carry scopes: `stepUpScope`, for 403 challenges. */
  stepUp?: StepUp;
};

/**
 * What the endpoint knows about a request besides its headers: `inProcess` when another endpoint
 * of this Worker (the hub) makes it for its own caller, whose request that endpoint checked.
 */
export type AuthContext = { inProcess?: boolean };

/** The RFC 6750 error codes a bearer challenge may carry. */
export type BearerErrorCode = "invalid_request" | "invalid_token" | "insufficient_scope";

/**
 * A missing or bad credential: answered 401 with a `WWW-Authenticate: Bearer` challenge that
 * names the endpoint's protected resource metadata and, for a bad credential, `error`.
 */
export class AuthError extends HttpError {
  override readonly name = "AuthError";
  constructor(
    message: string,
    /** The RFC 6750 `error` of the challenge; none when no credential was sent. */
    readonly error?: BearerErrorCode,
    /** The endpoint's protected resource metadata URL, once known. */
    metadataUrl?: string,
  ) {
    super(401, message, { "WWW-Authenticate": bearerChallenge(metadataUrl, error) });
  }
}

/** A `WWW-Authenticate` value: `Bearer resource_metadata="…"`, with `error` when given. */
export function bearerChallenge(metadataUrl: string | undefined, error?: BearerErrorCode): string {
  const parts = [
    ...(metadataUrl ? [`resource_metadata="${metadataUrl}"`] : ['realm="mcp"']),
    ...(error ? [`error="${error}"`] : []),
  ];
  return `Bearer ${parts.join(", ")}`;
}

const encoder = new TextEncoder();

/** A known token, kept encoded for the constant-time comparison. */
type KnownToken = TokenEntry & { bytes: Uint8Array };

function sameSecret(x: Uint8Array, y: Uint8Array): boolean {
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/** One entry of a token list: the token, the subject it stands for, and the subject's roles. */
export type TokenEntry = { token: string; subject: string; roles: string[] };

/**
 * Parses a token list, "token=subject,token2=subject2:role+role" (`API_TOKENS`): an entry
 * without a token or a subject is skipped, and a token listed twice stands for its last subject.
 */
export function tokenEntries(text: string | undefined): TokenEntry[] {
  const tokens = new Map<string, string>();
  for (const entry of (text ?? "").split(",")) {
    const eq = entry.indexOf("=");
    if (eq > 0) tokens.set(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim());
  }
  return [...tokens]
    .filter(([token, who]) => token !== "" && who !== "")
    .map(([token, who]) => {
      const [subject = "", roles = ""] = who.split(":", 2);
      return { token, subject, roles: roles.split("+").filter(Boolean) };
    });
}

/** The token of an `Authorization: Bearer <token>` header; undefined without the header. */
export function bearerTokenOf(request: Request): string | undefined {
  const header = request.headers.get("Authorization");
  if (header === null) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match?.[1])
    throw new AuthError("The Authorization header must be `Bearer <token>`.", "invalid_request");
  return match[1];
}

/**
 * Static bearer tokens from a secret holding "token=subject,…" (a subject may carry roles for
 * policy rules: "token=subject:role+role"). A request without a token is anonymous (refused
 * unless the endpoint allows anonymous callers, once any token is set); an unknown token is
 * always refused. `next` is asked about a token this list does not know (a JWT, say).
 */
export function bearerTokens(options: { variable: string; next?: Authenticate }): Authenticate {
  let parsed: { text: string | undefined; tokens: KnownToken[] } | undefined;
  const tokensOf = (env: Cloudflare.Env) => {
    const source = readVar(env, options.variable);
    if (!parsed || parsed.text !== source)
      parsed = {
        text: source,
        tokens: tokenEntries(source).map((entry) => ({
          ...entry,
          bytes: encoder.encode(entry.token),
        })),
      };
    return parsed.tokens;
  };
  const authenticate: Authenticate = (request, env, context) => {
    const known = tokensOf(env);
    const token = bearerTokenOf(request);
    if (token === undefined) return undefined;
    const bytes = encoder.encode(token);
    const credential = request.headers.get("Authorization") ?? "";
    for (const entry of known)
      if (sameSecret(entry.bytes, bytes))
        return { subject: entry.subject, roles: entry.roles, credential };
    if (options.next) return options.next(request, env, context);
    throw new AuthError("The bearer token is not valid for this MCP endpoint.", "invalid_token");
  };
  authenticate.configured = (env) =>
    tokensOf(env).length > 0 || (options.next?.configured?.(env) ?? false);
  if (options.next?.stepUp) authenticate.stepUp = options.next.stepUp;
  return authenticate;
}
