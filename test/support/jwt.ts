/**
 * Signs JWTs for tests with WebCrypto (in Node and in workerd), so a test controls every part
 * of the header and the claims, including the ones a well-behaved issuer would never send.
 */

export type PublicJwk = JsonWebKey & { kid?: string; alg?: string; use?: string };

/** A key that signs tokens: an asymmetric pair (its public half as a JWK) or an HS256 secret. */
export type SigningKey = {
  alg: "RS256" | "ES256" | "HS256";
  kid?: string;
  sign(data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
  /** The public JWK an issuer would publish (none for a shared secret). */
  jwk?: PublicJwk;
};

const encoder = new TextEncoder();
const bytes = (text: string) => new Uint8Array(encoder.encode(text));

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const part = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));

/** A fresh RSA (RS256) or EC P-256 (ES256) key pair with a key id. */
export async function keyPair(alg: "RS256" | "ES256", kid: string): Promise<SigningKey> {
  const params =
    alg === "RS256"
      ? {
          name: "RSASSA-PKCS1-v1_5",
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash: "SHA-256",
        }
      : { name: "ECDSA", namedCurve: "P-256" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const exported = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const jwk: PublicJwk = {
    kty: exported.kty,
    ...(alg === "RS256" ? { n: exported.n, e: exported.e } : {}),
    ...(alg === "ES256" ? { crv: exported.crv, x: exported.x, y: exported.y } : {}),
    kid,
    alg,
    use: "sig",
  };
  const signParams =
    alg === "RS256" ? { name: "RSASSA-PKCS1-v1_5" } : { name: "ECDSA", hash: "SHA-256" };
  return {
    alg,
    kid,
    jwk,
    sign: (data) => crypto.subtle.sign(signParams, pair.privateKey, data),
  };
}

/** An HS256 key from a shared secret. */
export async function hmacKey(secret: string): Promise<SigningKey> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return { alg: "HS256", sign: (data) => crypto.subtle.sign("HMAC", key, data) };
}

/** Seconds since the epoch, `offset` seconds from now. */
export const epoch = (offset = 0) => Math.floor(Date.now() / 1000) + offset;

/**
 * A signed token: `claims` over a default of an hour's lifetime; `header` entries replace the
 * defaults (`null` removes one).
 */
export async function signJwt(
  key: SigningKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const head: Record<string, unknown> = { alg: key.alg, typ: "JWT" };
  if (key.kid) head.kid = key.kid;
  for (const [name, value] of Object.entries(header)) {
    if (value === null) delete head[name];
    else head[name] = value;
  }
  const body = { iat: epoch(), exp: epoch(3600), ...claims };
  const input = `${part(head)}.${part(body)}`;
  const signature = new Uint8Array(await key.sign(bytes(input)));
  return `${input}.${base64url(signature)}`;
}

/** A token with no signature at all (`alg: none`), as an attacker would send it. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  return `${part({ alg: "none", typ: "JWT" })}.${part({ exp: epoch(3600), ...claims })}.`;
}
