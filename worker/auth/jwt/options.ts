/**
 * How `jwtBearer` verifies JWT bearer tokens: signed by the issuer's keys (HS256 with a shared
 * secret, or RS*, PS*, ES* and EdDSA with public keys given inline or fetched from a JWKS URL),
 * naming this endpoint as their audience, within their lifetime.
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
