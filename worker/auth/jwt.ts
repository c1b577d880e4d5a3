import { readVar } from "../env-vars.ts";
import { AuthError, bearerTokenOf, type Authenticate, type Caller } from "./bearer.ts";
import { JwksCache } from "./jwt/jwks.ts";
import type { JwtOptions } from "./jwt/options.ts";
import {
  ASYMMETRIC,
  keyFits,
  settingsOf,
  SYMMETRIC,
  type Algorithm,
  type Jwk,
  type Settings,
} from "./jwt/settings.ts";
import { decode, verifies } from "./jwt/signature.ts";
import { stepUpScope } from "./step-up.ts";

export type { JwtOptions } from "./jwt/options.ts";

const invalid = (message: string): never => {
  throw new AuthError(message, "invalid_token");
};

/** The resource a request is addressed to: its origin and path, without a trailing slash. */
function resourceOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function stringList(value: unknown): string[] {
  if (typeof value === "string") return value.split(" ").filter(Boolean);
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === "string")
    : [];
}

/**
 * Authenticates callers by JWT bearer tokens (see JwtOptions for the configuration). A request
 * without a token is anonymous; a token that is not a JWT is refused (put static tokens in front
 * with `bearerTokens({ variable, next: jwtBearer() })`). A JWT
 * is refused (401, `invalid_token`) unless its signature verifies with a configured key for its
 * `alg`, `iss` is the issuer, `aud` names an accepted audience, `exp` is set and not past, and
 * `nbf`, if set, is not ahead (each within the clock skew), and it has a `sub`. The caller's
 * subject is `sub`; scopes come from `scope` (space-separated) or `scp`; roles from `roles`.
 *
 * A call the hub of this Worker makes in-process for its caller is not checked for audience
 * again: the hub's endpoint checked it, and only code in this isolate can mark a call so.
 */
export function jwtBearer(options: JwtOptions = {}): Authenticate {
  const skew = options.clockSkewSeconds ?? 60;
  if (!Number.isFinite(skew) || skew < 0 || skew > 300)
    throw new RangeError("jwtBearer: clockSkewSeconds must be a number of seconds from 0 to 300.");
  const ttl = options.jwksTtlSeconds ?? 300;
  if (!Number.isFinite(ttl) || ttl < 0)
    throw new RangeError("jwtBearer: jwksTtlSeconds must be a number of seconds, 0 or more.");
  const maxLifetime = options.maxLifetimeSeconds ?? 86_400;
  if (!Number.isFinite(maxLifetime) || maxLifetime <= 0)
    throw new RangeError("jwtBearer: maxLifetimeSeconds must be a number of seconds above 0.");
  const rolesClaim = options.rolesClaim ?? "roles";
  const jwks = new JwksCache(ttl * 1000, options.fetch ?? ((input, init) => fetch(input, init)));
  let memo: { env: Cloudflare.Env; settings: Settings | undefined } | undefined;
  const settingsFor = (env: Cloudflare.Env) => {
    if (memo?.env !== env) memo = { env, settings: settingsOf(env, options) };
    return memo.settings;
  };

  const keysFor = async (
    settings: Settings,
    alg: Algorithm,
    kid: string | undefined,
  ): Promise<(string | Jwk)[]> => {
    if (alg === "HS256") return settings.secret ? [settings.secret] : [];
    const fetched = settings.jwksUrl ? await jwks.keys(settings.jwksUrl, kid) : [];
    return [...settings.keys, ...fetched].filter(
      (key) => keyFits(key, alg) && (kid === undefined || key.kid === kid),
    );
  };

  const authenticate: Authenticate = async (request, env, context) => {
    const settings = settingsFor(env);
    const token = bearerTokenOf(request);
    if (token === undefined) return undefined;
    const decoded = decode(token);
    if (!decoded || !settings)
      return invalid("The bearer token is not valid for this MCP endpoint.");
    const { header, payload } = decoded;
    const alg = header.alg;
    const allowed: readonly string[] = [
      ...(settings.secret ? SYMMETRIC : []),
      ...(settings.keys.length || settings.jwksUrl ? ASYMMETRIC : []),
    ];
    if (typeof alg !== "string" || !allowed.includes(alg))
      return invalid("The token's signing algorithm is not accepted here.");
    const typ = header.typ;
    if (
      typ !== undefined &&
      (typeof typ !== "string" || !/^(application\/)?(jwt|at\+jwt)$/i.test(typ))
    )
      return invalid("The token's type is not a JWT access token.");
    if ("crit" in header)
      return invalid("The token names critical header extensions this endpoint does not support.");
    const kid = typeof header.kid === "string" ? header.kid : undefined;
    const keys = await keysFor(settings, alg as Algorithm, kid);
    if (keys.length === 0)
      return invalid("The token is signed with a key this endpoint does not know.");
    if (keys.length > 1 && kid === undefined)
      return invalid("The token names no key (kid), and the issuer has several.");
    if (!(await verifies(decoded, keys[0] as string | Jwk, alg as Algorithm)))
      return invalid("The token's signature does not verify.");
    // The signature holds: the claims are the issuer's.
    if (payload.iss !== settings.issuer) return invalid("The token is from another issuer.");
    if (!context?.inProcess) {
      const accepted = settings.audience ?? [resourceOf(request)];
      const audiences = stringList(Array.isArray(payload.aud) ? payload.aud : [payload.aud]);
      if (!audiences.some((aud) => accepted.includes(aud)))
        return invalid("The token was not issued for this MCP endpoint (its audience).");
    }
    const now = Date.now() / 1000;
    if (typeof payload.exp !== "number" || !Number.isFinite(payload.exp))
      return invalid("The token has no expiry (exp).");
    if (payload.exp + skew <= now) return invalid("The token has expired.");
    if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || payload.nbf - skew > now))
      return invalid("The token is not valid yet (nbf).");
    const { iat } = payload;
    if (iat !== undefined && (typeof iat !== "number" || !Number.isFinite(iat) || iat - skew > now))
      return invalid("The token was issued in the future (iat).");
    const from = typeof iat === "number" ? Math.min(iat, now) : now;
    if (payload.exp - from > maxLifetime + skew)
      return invalid(`The token lives longer than this endpoint accepts (${maxLifetime} s).`);
    if (typeof payload.sub !== "string" || payload.sub === "")
      return invalid("The token names no subject (sub).");
    const caller: Caller = {
      subject: payload.sub,
      roles: stringList(payload[rolesClaim]),
      scopes: stringList(payload.scope ?? payload.scp),
      credential: request.headers.get("Authorization") ?? "",
    };
    return caller;
  };
  authenticate.configured = (env) => settingsFor(env) !== undefined;
  authenticate.stepUp = stepUpScope;
  return authenticate;
}

/** The issuer a deployment's JWTs come from, for its metadata's `authorization_servers`. */
export function jwtIssuer(env: Cloudflare.Env, variable = "JWT_ISSUER"): string | undefined {
  return readVar(env, variable)?.trim() || undefined;
}
