import { fromBase64Url } from "../../shared/base64.ts";
import { readVar } from "../env-vars.ts";
import { BodyTooLarge, readLimited } from "../http/body.ts";
import { HttpError } from "../http/http-error.ts";
import { isLocalHost } from "../http/origin.ts";
import { AuthError, bearerTokenOf, type Authenticate, type Caller } from "./bearer.ts";
import { stepUpScope } from "./step-up.ts";

/**
 * JWT bearer tokens: signed by the issuer's keys (HS256 with a shared secret, or RS*, PS*, ES*
 * and EdDSA with public keys given inline or fetched from a JWKS URL), naming this endpoint as
 * their audience, within their lifetime. Signatures are checked with WebCrypto, the platform's
 * own: Hono's JWT utility changed its verify signature and header rules within the Hono versions
 * this package supports (claims checked before the signature and without clock skew up to 4.8,
 * options from 4.9, a `typ` option only in late 4.13 releases), so relying on it would make the
 * same token valid or not depending on the user's Hono. This module decodes, chooses the key and
 * decides.
 *
 * Configuration, from the Worker's variables (names below are the defaults):
 * - `JWT_ISSUER`: the one issuer whose tokens are accepted (`iss`). Required once any key is set.
 * - `JWT_SECRET`: an HS256 shared secret (32+ characters; a secret, never a `[vars]` entry).
 * - `JWT_PUBLIC_KEYS`: public keys as a JWK Set (`{"keys":[…]}`), an array of JWKs or one JWK.
 * - `JWT_JWKS_URL`: where the issuer publishes its JWK Set (https; http only on loopback).
 * - `JWT_AUDIENCE`: the accepted audiences, comma-separated. Unset, a token must name the
 *   endpoint it is used at: its RFC 9728 `resource` (origin and path, no trailing slash).
 */
export type JwtOptions = {
  /** Variable names, to read another set (two issuers on two endpoints, say). */
  variables?: Partial<Record<"issuer" | "secret" | "publicKeys" | "jwksUrl" | "audience", string>>;
  /** Allowed clock difference, in seconds, for `exp` and `nbf` (default 60). */
  clockSkewSeconds?: number;
  /** How long a fetched JWK Set is used before it is fetched again, in seconds (default 300). */
  jwksTtlSeconds?: number;
  /**
   * The longest lifetime a token may have, in seconds (default 86400, a day): its `exp` no further
   * than that from its `iat`, nor from now. An access token meant for years is a leaked key.
   */
  maxLifetimeSeconds?: number;
  /** The claim holding the caller's roles, an array of strings, for `role:` rules (default "roles"). */
  rolesClaim?: string;
  /** Fetches the JWK Set (default: the global fetch). */
  fetch?: typeof fetch;
};

/** A JSON Web Key as issuers publish it. */
type Jwk = JsonWebKey & { kid?: string; use?: string };

/** The verification settings one deployment's variables give. */
type Settings = {
  issuer: string;
  secret: string | undefined;
  keys: readonly Jwk[];
  jwksUrl: string | undefined;
  audience: readonly string[] | undefined;
};

const SYMMETRIC = ["HS256"] as const;
const ASYMMETRIC = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;
type Algorithm = (typeof SYMMETRIC)[number] | (typeof ASYMMETRIC)[number];

/** The key type (and curve) each asymmetric algorithm needs. */
function keyFits(key: Jwk, alg: Algorithm): boolean {
  if (key.use !== undefined && key.use !== "sig") return false;
  if (key.key_ops !== undefined && !key.key_ops.includes("verify")) return false;
  if (key.alg !== undefined && key.alg !== alg) return false;
  if (alg.startsWith("RS") || alg.startsWith("PS")) return key.kty === "RSA";
  if (alg === "ES256") return key.kty === "EC" && key.crv === "P-256";
  if (alg === "ES384") return key.kty === "EC" && key.crv === "P-384";
  if (alg === "ES512") return key.kty === "EC" && key.crv === "P-521";
  return key.kty === "OKP" && key.crv === "Ed25519";
}

/** The most a JWK Set may weigh, and how long its fetch may take. */
const JWKS_MAX_BYTES = 256 * 1024;
const JWKS_TIMEOUT_MS = 5_000;
/** After an unknown `kid`, the JWK Set is fetched again at most this often (key rotation). */
const JWKS_REFETCH_MS = 30_000;
/** After a failed fetch, keys fetched earlier are used for at most this long. */
const JWKS_STALE_MS = 3_600_000;

const misconfigured = (message: string): never => {
  console.error(`JWT: ${message}`);
  throw new HttpError(500, `Server misconfigured: ${message}`);
};

/** A JWK Set's keys from its JSON text (a set, an array, or one key). */
function parseKeys(text: string, what: string): Jwk[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return misconfigured(`${what} is not JSON (a JWK Set: {"keys":[…]}).`);
  }
  const list: unknown = Array.isArray(value) ? value : Reflect.get(Object(value), "keys");
  const keys = Array.isArray(list) ? list : [value];
  if (!keys.every((key) => typeof key === "object" && key !== null && "kty" in key))
    return misconfigured(`${what} must be a JWK Set ({"keys":[…]}), an array of JWKs or one JWK.`);
  return keys as Jwk[];
}

/** Whether a URL may serve keys: https, or http on this machine (development and tests). */
function allowedJwksUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && isLocalHost(url.hostname);
}

function settingsOf(env: Cloudflare.Env, options: JwtOptions): Settings | undefined {
  const name = {
    issuer: "JWT_ISSUER",
    secret: "JWT_SECRET",
    publicKeys: "JWT_PUBLIC_KEYS",
    jwksUrl: "JWT_JWKS_URL",
    audience: "JWT_AUDIENCE",
    ...options.variables,
  };
  const read = (key: keyof typeof name) => readVar(env, name[key])?.trim() || undefined;
  const issuer = read("issuer");
  const secret = read("secret");
  const publicKeys = read("publicKeys");
  const jwksUrl = read("jwksUrl");
  const audience = read("audience");
  if (!issuer && !secret && !publicKeys && !jwksUrl) return undefined;
  if (!issuer)
    return misconfigured(
      `${name.issuer} must name the issuer whose tokens this Worker accepts (the "iss" they carry).`,
    );
  if (!secret && !publicKeys && !jwksUrl)
    return misconfigured(
      `${name.issuer} is set but no key is: set ${name.jwksUrl}, ${name.publicKeys} or ${name.secret}.`,
    );
  if (secret !== undefined && secret.length < 32)
    return misconfigured(
      `${name.secret} is too short to sign tokens safely: use 32+ random characters (\`wrangler secret put ${name.secret}\`).`,
    );
  if (jwksUrl !== undefined && !allowedJwksUrl(jwksUrl))
    return misconfigured(`${name.jwksUrl} must be an https URL (http only on loopback).`);
  const keys = publicKeys ? parseKeys(publicKeys, name.publicKeys) : [];
  if (publicKeys && !keys.some((key) => ASYMMETRIC.some((alg) => keyFits(key, alg))))
    return misconfigured(
      `${name.publicKeys} holds no public key that can verify a signature (RSA, EC P-256/384/521 or Ed25519, for "sig").`,
    );
  return {
    issuer,
    secret,
    keys,
    jwksUrl,
    audience: audience
      ?.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  };
}

/** A fetched JWK Set and when it was fetched; `pending` while a fetch runs. */
type JwksEntry = { keys: Jwk[]; fetchedAt: number; failedAt?: number; pending?: Promise<Jwk[]> };

/**
 * The JWK Sets this isolate fetched, by URL: fetched once per TTL, once more (at most every
 * 30 s) when a token names a key they lack, one fetch at a time; when the issuer cannot be
 * reached, keys fetched in the last hour stand in, and it is not asked again for 30 s (so a
 * blackholed issuer does not hold every request for the fetch timeout). A fetch runs in the
 * request that starts it; others wait for it (if that request's client leaves and the fetch is
 * cancelled, they answer 503 or use the keys they had, and the next request fetches again).
 */
class JwksCache {
  private readonly entries = new Map<string, JwksEntry>();
  constructor(
    private readonly ttlMs: number,
    private readonly fetcher: typeof fetch,
  ) {}

  async keys(url: string, kid: string | undefined): Promise<readonly Jwk[]> {
    const entry = this.entries.get(url);
    const now = Date.now();
    const age = entry ? now - entry.fetchedAt : Infinity;
    const missing = kid !== undefined && !entry?.keys.some((key) => key.kid === kid);
    if (entry && age < this.ttlMs && !(missing && age >= JWKS_REFETCH_MS)) return entry.keys;
    const stale = () => {
      if (entry?.keys.length && age < JWKS_STALE_MS) return entry.keys;
      throw new HttpError(
        503,
        "The token issuer's signing keys cannot be fetched right now; try again shortly.",
        { "Retry-After": "5" },
      );
    };
    if (entry?.failedAt !== undefined && now - entry.failedAt < JWKS_REFETCH_MS) return stale();
    try {
      return await this.fetchOnce(url);
    } catch (error) {
      console.error(`JWT: fetching the JWK Set failed: ${String(error)}`);
      return stale();
    }
  }

  private fetchOnce(url: string): Promise<Jwk[]> {
    const entry = this.entries.get(url);
    if (entry?.pending) return entry.pending;
    const pending = (async () => {
      const response = await this.fetcher(url, {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(JWKS_TIMEOUT_MS),
        // A redirect could lead off https: the configured URL is the one trusted.
        redirect: "manual",
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      }
      const body = await readLimited(response, { maxBytes: JWKS_MAX_BYTES, deadlineMs: 0 }).catch(
        (error: unknown) => {
          // The reader speaks of request bodies; this is the issuer's answer.
          if (error instanceof BodyTooLarge)
            throw new Error(`the JWK Set is larger than ${JWKS_MAX_BYTES} bytes`);
          throw error;
        },
      );
      const keys = parseKeys(decoder.decode(body), "The JWK Set");
      this.entries.set(url, { keys, fetchedAt: Date.now() });
      return keys;
    })();
    this.entries.set(url, { keys: entry?.keys ?? [], fetchedAt: entry?.fetchedAt ?? 0, pending });
    pending.catch(() => {
      const current = this.entries.get(url);
      if (current?.pending === pending)
        this.entries.set(url, { ...current, pending: undefined, failedAt: Date.now() });
    });
    return pending;
  }
}

/** A JWT's parts: header and claims decoded but not yet trusted, and what was signed. */
type Decoded = {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signed: Uint8Array<ArrayBuffer>;
  signature: Uint8Array<ArrayBuffer>;
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A base64url part's bytes, or a throw (decode turns it into "not a JWT"). */
function bytesOf(part: string): Uint8Array<ArrayBuffer> {
  const bytes = fromBase64Url(part);
  if (!bytes) throw new Error("not base64url");
  return new Uint8Array(bytes);
}

function jsonObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(strictUtf8.decode(bytesOf(text)));
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("not an object");
  return value as Record<string, unknown>;
}

/** A compact JWS (three base64url parts), or undefined for anything else. */
function decode(token: string): Decoded | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [head = "", body = "", signature = ""] = parts;
  try {
    return {
      header: jsonObject(head),
      payload: jsonObject(body),
      signed: new Uint8Array(encoder.encode(`${head}.${body}`)),
      signature: bytesOf(signature),
    };
  } catch {
    return undefined;
  }
}

/** How WebCrypto imports a key for an algorithm, and verifies with it. */
function webCrypto(alg: Algorithm): {
  importAs: Parameters<typeof crypto.subtle.importKey>[2];
  verifyAs: Parameters<typeof crypto.subtle.verify>[0];
} {
  const bits = alg.slice(2);
  const hash = `SHA-${bits}`;
  if (alg === "EdDSA") return { importAs: { name: "Ed25519" }, verifyAs: { name: "Ed25519" } };
  if (alg.startsWith("HS")) return { importAs: { name: "HMAC", hash }, verifyAs: { name: "HMAC" } };
  if (alg.startsWith("RS"))
    return {
      importAs: { name: "RSASSA-PKCS1-v1_5", hash },
      verifyAs: { name: "RSASSA-PKCS1-v1_5" },
    };
  if (alg.startsWith("PS"))
    return {
      importAs: { name: "RSA-PSS", hash },
      verifyAs: { name: "RSA-PSS", saltLength: Number(bits) / 8 },
    };
  const namedCurve = { "256": "P-256", "384": "P-384", "512": "P-521" }[bits] ?? "P-256";
  return { importAs: { name: "ECDSA", namedCurve }, verifyAs: { name: "ECDSA", hash } };
}

/** Imported keys, by the JWK or secret they came from and the algorithm. */
const imported = new WeakMap<Jwk, Map<Algorithm, Promise<CryptoKey>>>();
const importedSecrets = new Map<string, Promise<CryptoKey>>();

function cryptoKey(key: string | Jwk, alg: Algorithm): Promise<CryptoKey> {
  const { importAs } = webCrypto(alg);
  if (typeof key === "string") {
    let found = importedSecrets.get(key);
    if (!found) {
      found = crypto.subtle.importKey("raw", encoder.encode(key), importAs, false, ["verify"]);
      if (importedSecrets.size > 16) importedSecrets.clear();
      importedSecrets.set(key, found);
    }
    return found;
  }
  let byAlg = imported.get(key);
  if (!byAlg) imported.set(key, (byAlg = new Map()));
  let found = byAlg.get(alg);
  if (!found) {
    // Only the public members: an issuer's `alg`, `use` or `key_ops` were checked by keyFits.
    const { kty, n, e, crv, x, y } = key;
    found = crypto.subtle.importKey("jwk", { kty, n, e, crv, x, y }, importAs, false, ["verify"]);
    byAlg.set(alg, found);
  }
  return found;
}

/** Whether a token's signature verifies with a key. */
async function verifies(decoded: Decoded, key: string | Jwk, alg: Algorithm): Promise<boolean> {
  try {
    const { verifyAs } = webCrypto(alg);
    return await crypto.subtle.verify(
      verifyAs,
      await cryptoKey(key, alg),
      decoded.signature,
      decoded.signed,
    );
  } catch {
    // A key that does not import (a malformed JWK) or a signature of the wrong shape.
    return false;
  }
}

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
