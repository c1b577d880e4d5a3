import { readVar } from "../env-vars.ts";
import { toBase64Url } from "../../shared/base64.ts";
import { errorText } from "../../shared/error-text.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";

/** One AES-GCM key and the short id a handle carries to name it (`idBytes` as sealed). */
type SealingKey = { id: string; idBytes: Uint8Array; key: CryptoKey };

/** The key that seals new handles, and every key that may still open old ones. */
export type Keyring = { current: SealingKey; all: ReadonlyMap<string, SealingKey> };

/** Thrown when the deployment has no sealing secret: the server must not serve calls. */
export class MissingSecretError extends Error {
  override readonly name = "MissingSecretError";
}

const MIN_SECRET_LENGTH = 32;
const encoder = new TextEncoder();

/** Derives the AES-256-GCM key for a secret, with HKDF-SHA-256 (keyrings are cached, below). */
async function deriveKey(secret: string): Promise<SealingKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveKey",
    "deriveBits",
  ]);
  const hkdf = (info: string) => ({
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(),
    info: encoder.encode(info),
  });
  const aes = await crypto.subtle.deriveKey(
    hkdf("edgemcp handle key v1"),
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
  const idBytes = new Uint8Array(
    await crypto.subtle.deriveBits(hkdf("edgemcp handle key id v1"), material, 32),
  );
  return { id: toBase64Url(idBytes), idBytes, key: aes };
}

/**
 * The keyring for the current secret and any previous ones (comma-separated), so a rotated
 * deployment still opens handles it sealed before. Built once per isolate per configuration.
 */
export function keyringFrom(
  secret: string | undefined,
  previous: string | undefined,
): Promise<Keyring> {
  const key = `${secret ?? ""}\n${previous ?? ""}`;
  let ring = rings.get(key);
  if (!ring) {
    ring = buildKeyring(secret, previous);
    // A refusal is not cached: the next request re-reads the (possibly fixed) configuration.
    ring.catch(() => rings.delete(key));
    rings.set(key, ring);
  }
  return ring;
}

const rings = new Map<string, Promise<Keyring>>();
/** The keyring of a Worker: `EDGEMCP_SECRET`, and `EDGEMCP_PREVIOUS_SECRETS` still accepted. */
export function keyringOf(env: Cloudflare.Env): Promise<Keyring> {
  return keyringFrom(readVar(env, "EDGEMCP_SECRET"), readVar(env, "EDGEMCP_PREVIOUS_SECRETS"));
}

/**
 * The keyring of a Worker, read when something first needs sealing (a cursor of a paged list, a
 * handle, requestState): a server that never seals runs without `EDGEMCP_SECRET`. A missing or
 * unusable secret fails the request that needed it, -32603 with HTTP status 500 and the reason
 * (which names the variable, never its value), and is logged.
 */
export function keyringWhenNeeded(env: Cloudflare.Env): () => Promise<Keyring> {
  return () =>
    keyringOf(env).catch((error: unknown) => {
      const message = errorText(error);
      console.error(message);
      throw new RpcError(
        ErrorCode.InternalError,
        `Server misconfigured: ${message}`,
        undefined,
        500,
      );
    });
}

async function buildKeyring(
  secret: string | undefined,
  previous: string | undefined,
): Promise<Keyring> {
  if (!secret) {
    throw new MissingSecretError(
      "EDGEMCP_SECRET is not set, so this server cannot seal handles, cursors or requestState. " +
        "Set it with `npx wrangler secret put EDGEMCP_SECRET` (locally: .dev.vars).",
    );
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new MissingSecretError(
      `EDGEMCP_SECRET must be at least ${MIN_SECRET_LENGTH} characters of random text.`,
    );
  }
  const current = await deriveKey(secret);
  const olds = await Promise.all(
    (previous ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map(deriveKey),
  );
  return { current, all: new Map([current, ...olds].map((k) => [k.id, k])) };
}
