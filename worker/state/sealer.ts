import { ToolError } from "../../shared/protocol/errors.ts";
import { fromBase64Url, toBase64Url } from "../../shared/base64.ts";
import type { Keyring } from "./keyring.ts";

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();

/** Why a handle was refused. */
export type HandleProblem = "invalid" | "expired" | "purpose" | "caller";

/**
 * A handle that cannot be used. Thrown from a tool it becomes an `isError` result the model can
 * act on; in protocol fields (cursors, requestState) the runtime answers -32602 instead.
 */
export class HandleError extends ToolError {
  constructor(
    readonly problem: HandleProblem,
    message: string,
  ) {
    super(message);
  }
}

type Payload = { p: string; s: string; e: number; d: unknown };

/** "45 seconds", "3 minutes", "2 hours": how long ago something expired. */
function describeDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 120) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} minutes`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} hours` : `${Math.round(h / 24)} days`;
}

/**
 * Seals small values into opaque, tamper-proof strings (AES-256-GCM) bound to a purpose, a
 * caller and an expiry; any instance holding the secret can open them. Layout, base64url:
 * version (1 byte) | key id (4) | IV (12) | ciphertext and tag, with the first 5 bytes as AAD.
 */
export class Sealer {
  #keyring: Keyring | undefined;

  /**
   * `keyring`: the keys, or how to read them on first use (so a server that never seals needs
   * no secret; a missing one fails the seal or open that needed it).
   */
  constructor(
    private readonly keyring: Keyring | (() => Promise<Keyring>),
    private readonly now: () => number = Date.now,
  ) {}

  async #keys(): Promise<Keyring> {
    this.#keyring ??= typeof this.keyring === "function" ? await this.keyring() : this.keyring;
    return this.#keyring;
  }

  async seal(purpose: string, subject: string, data: unknown, ttlMs: number): Promise<string> {
    const { idBytes, key } = (await this.#keys()).current;
    const header = new Uint8Array([FORMAT_VERSION, ...idBytes]);
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const payload: Payload = {
      p: purpose,
      s: subject,
      e: Math.ceil((this.now() + ttlMs) / 1000),
      d: data,
    };
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: header },
      key,
      encoder.encode(JSON.stringify(payload)),
    );
    const out = new Uint8Array(header.length + IV_BYTES + sealed.byteLength);
    out.set(header);
    out.set(iv, header.length);
    out.set(new Uint8Array(sealed), header.length + IV_BYTES);
    return toBase64Url(out);
  }

  /** Opens a handle, or throws a HandleError saying what is wrong and, with `renew`, what to do. */
  async open(purpose: string, subject: string, handle: string, renew = ""): Promise<unknown> {
    const advice = renew ? ` ${renew}` : "";
    const invalid = () =>
      new HandleError(
        "invalid",
        `This ${purpose} handle is not valid: it was altered, cut short, or made by another deployment.${advice}`,
      );
    const bytes = fromBase64Url(handle);
    if (!bytes || bytes.length < 5 + IV_BYTES + 16 || bytes[0] !== FORMAT_VERSION) throw invalid();
    const key = (await this.#keys()).all.get(toBase64Url(bytes.subarray(1, 5)));
    if (!key) throw invalid();
    let payload: Payload;
    try {
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: bytes.subarray(5, 5 + IV_BYTES),
          additionalData: bytes.subarray(0, 5),
        },
        key.key,
        bytes.subarray(5 + IV_BYTES),
      );
      payload = JSON.parse(decoder.decode(plain));
    } catch {
      throw invalid();
    }
    // Another caller's handle is refused before anything about it is said (its purpose too).
    if (payload.s !== subject)
      throw new HandleError("caller", `This ${purpose} handle belongs to another caller.${advice}`);
    if (payload.p !== purpose) {
      throw new HandleError(
        "purpose",
        `This handle was made for ${payload.p}, not for ${purpose}; pass the ${purpose} handle here.`,
      );
    }
    const late = this.now() - payload.e * 1000;
    if (late >= 0)
      throw new HandleError(
        "expired",
        `This ${purpose} handle expired ${describeDuration(late)} ago.${advice}`,
      );
    return payload.d;
  }
}
