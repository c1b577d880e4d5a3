import { readVar } from "../../env-vars.ts";
import { HttpError } from "../../http/http-error.ts";
import { isLocalHost } from "../../http/origin.ts";
import type { JwtOptions } from "./options.ts";

/** A JSON Web Key as issuers publish it. */
export type Jwk = JsonWebKey & { kid?: string; use?: string };

/** The verification settings one deployment's variables give. */
export type Settings = {
  issuer: string;
  secret: string | undefined;
  keys: readonly Jwk[];
  jwksUrl: string | undefined;
  audience: readonly string[] | undefined;
};

export const SYMMETRIC = ["HS256"] as const;
export const ASYMMETRIC = [
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
export type Algorithm = (typeof SYMMETRIC)[number] | (typeof ASYMMETRIC)[number];

/** The key type (and curve) each asymmetric algorithm needs. */
export function keyFits(key: Jwk, alg: Algorithm): boolean {
  if (key.use !== undefined && key.use !== "sig") return false;
  if (key.key_ops !== undefined && !key.key_ops.includes("verify")) return false;
  if (key.alg !== undefined && key.alg !== alg) return false;
  if (alg.startsWith("RS") || alg.startsWith("PS")) return key.kty === "RSA";
  if (alg === "ES256") return key.kty === "EC" && key.crv === "P-256";
  if (alg === "ES384") return key.kty === "EC" && key.crv === "P-384";
  if (alg === "ES512") return key.kty === "EC" && key.crv === "P-521";
  return key.kty === "OKP" && key.crv === "Ed25519";
}

const misconfigured = (message: string): never => {
  console.error(`JWT: ${message}`);
  throw new HttpError(500, `Server misconfigured: ${message}`);
};

/** A JWK Set's keys from its JSON text (a set, an array, or one key). */
export function parseKeys(text: string, what: string): Jwk[] {
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

/** The settings `env` gives, undefined when it configures no JWT issuer at all. */
export function settingsOf(env: Cloudflare.Env, options: JwtOptions): Settings | undefined {
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
