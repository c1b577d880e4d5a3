import { readVar } from "../env-vars.ts";
import { HttpError } from "../http/http-error.ts";

/**
 * Who is calling, as established by authentication; `credential` is the `Authorization` value
 * that proved it, for forwarding to servers of the same deployment (the hub's in-process ones).
 */
export type Caller = { subject: string; credential?: string };

/**
 * Establishes the caller of a request: a Caller, undefined for an anonymous request, or an
 * AuthError for a bad or missing credential (answered 401 with its challenge).
 */
export type Authenticate = (
  request: Request,
  env: Cloudflare.Env,
) => Promise<Caller | undefined> | Caller | undefined;

/** A missing or bad credential: answered 401 with its `WWW-Authenticate` challenge. */
export class AuthError extends HttpError {
  override readonly name = "AuthError";
  constructor(
    message: string,
    /** The `WWW-Authenticate` challenge sent with the 401. */
    readonly challenge: string,
  ) {
    super(401, message, { "WWW-Authenticate": challenge });
  }
}

const encoder = new TextEncoder();

/** A known token, kept encoded for the constant-time comparison. */
type KnownToken = { bytes: Uint8Array; subject: string };

function sameSecret(x: Uint8Array, y: Uint8Array): boolean {
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/** Parses "token=subject,token2=subject2". */
function parseTokenList(text: string | undefined): KnownToken[] {
  const tokens = new Map<string, string>();
  for (const entry of (text ?? "").split(",")) {
    const eq = entry.indexOf("=");
    if (eq > 0) tokens.set(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim());
  }
  return [...tokens].map(([token, subject]) => ({ bytes: encoder.encode(token), subject }));
}

/**
 * Bearer tokens from a secret or variable holding "token=subject,…". Without a token a request
 * is anonymous unless `required`; an unknown token is always refused.
 */
export function bearerTokens(options: { variable: string; required?: boolean }): Authenticate {
  let parsed: { text: string | undefined; tokens: KnownToken[] } | undefined;
  return (request, env) => {
    const source = readVar(env, options.variable);
    if (!parsed || parsed.text !== source)
      parsed = { text: source, tokens: parseTokenList(source) };
    const header = request.headers.get("Authorization");
    if (header === null) {
      if (options.required)
        throw new AuthError("This MCP endpoint needs a bearer token.", 'Bearer realm="mcp"');
      return undefined;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match)
      throw new AuthError(
        "The Authorization header must be `Bearer <token>`.",
        'Bearer realm="mcp", error="invalid_request"',
      );
    const token = encoder.encode(match[1] ?? "");
    for (const { bytes, subject } of parsed.tokens)
      if (sameSecret(bytes, token)) return { subject, credential: header };
    throw new AuthError(
      "The bearer token is not valid for this MCP endpoint.",
      'Bearer realm="mcp", error="invalid_token"',
    );
  };
}
