import { fromBase64Url } from "../../../shared/base64.ts";
import type { Algorithm, Jwk } from "./settings.ts";

// Signatures are checked with WebCrypto, the platform's own: Hono's JWT utility changed its
// verify signature and header rules within the Hono versions this package supports (claims
// checked before the signature and without clock skew up to 4.8, options from 4.9, a `typ`
// option only in late 4.13 releases), so relying on it would make the same token valid or not
// depending on the user's Hono. This module decodes and verifies; jwt.ts decides.

/** A JWT's parts: header and claims decoded but not yet trusted, and what was signed. */
export type Decoded = {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signed: Uint8Array<ArrayBuffer>;
  signature: Uint8Array<ArrayBuffer>;
};

const encoder = new TextEncoder();
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
export function decode(token: string): Decoded | undefined {
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
export async function verifies(
  decoded: Decoded,
  key: string | Jwk,
  alg: Algorithm,
): Promise<boolean> {
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
