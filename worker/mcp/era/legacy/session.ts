import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import { toBase64Url } from "../../../../shared/base64.ts";
import type { ClientCapabilities } from "../../../../shared/protocol/capabilities.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import type { LegacyVersion } from "../../../../shared/protocol/versions.ts";
import { HttpError } from "../../../http/http-error.ts";

/**
 * The longest `Mcp-Session-Id` accepted. The ids minted here are at most 28 characters; the
 * bound leaves room for ids minted by a gateway in front, and keeps a cancellation key (a
 * Durable Object's name) small. A longer or otherwise malformed id is refused with 400 rather
 * than ignored: a client that ignored it would find its cancellations silently going nowhere.
 */
export const MAX_SESSION_ID_LENGTH = 256;

// The 2025 transport: a session id holds visible ASCII only (0x21 to 0x7E).
const SESSION_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_SESSION_ID_LENGTH}}$`);

/**
 * The `Mcp-Session-Id` a 2025 client sent, or undefined without one. The Worker never saw most
 * ids it is sent (it keeps none), so any well-formed id is accepted; a malformed one is an
 * HTTP 400.
 */
export function readSessionId(headers: Headers): string | undefined {
  const id = headers.get(Header.sessionId);
  if (id === null) return undefined;
  if (!SESSION_ID.test(id)) {
    throw new HttpError(
      400,
      `${Header.sessionId} must be 1 to ${MAX_SESSION_ID_LENGTH} visible ASCII characters: send the id the initialize response gave, or none.`,
    );
  }
  return id;
}

// What a client may be asked for, one letter each, as a minted id carries it after its dot.
type Flag = "e" | "u" | "s" | "t" | "r";

const MINTED = /^[A-Za-z0-9_-]{22}\.([eustr]*)$/;

function has(value: unknown): boolean {
  return isJsonObject(value);
}

/**
 * A fresh `Mcp-Session-Id` for a 2025 `initialize` reply: 128 random bits (base64url), a dot,
 * and a letter for each kind of input the client declared (`e` form and `u` URL elicitation,
 * `s` sampling, `t` sampling with tools, `r` roots). Nothing is stored: the id names the scope
 * the client's cancellations reach, and brings back on every request what `initialize`
 * declared, so the server asks only for what the client can answer. A client that forges its
 * letters only changes what it is itself asked.
 */
export function mintSessionId(declared: ClientCapabilities): string {
  const { elicitation, sampling } = declared;
  let flags = "";
  if (has(elicitation) && (has(elicitation?.form) || !has(elicitation?.url))) flags += "e";
  if (has(elicitation?.url)) flags += "u";
  if (has(sampling)) flags += "s";
  if (has(sampling?.tools)) flags += "t";
  if (has(declared.roots)) flags += "r";
  return `${toBase64Url(crypto.getRandomValues(new Uint8Array(16)))}.${flags}`;
}

/** Every input kind, for a session this Worker did not mint (or none): nothing to go by. */
const UNKNOWN: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: { tools: {} },
  roots: {},
};

/** What a session's `initialize` declared, read back from an id minted here. */
export function declaredIn(sessionId: string | undefined): ClientCapabilities {
  const flags = sessionId === undefined ? undefined : MINTED.exec(sessionId)?.[1];
  if (flags === undefined) return UNKNOWN;
  const set = new Set(flags.split("") as Flag[]);
  return {
    ...(set.has("e") || set.has("u")
      ? {
          elicitation: {
            ...(set.has("e") ? { form: {} } : {}),
            ...(set.has("u") ? { url: {} } : {}),
          },
        }
      : {}),
    ...(set.has("s") ? { sampling: set.has("t") ? { tools: {} } : {} } : {}),
    ...(set.has("r") ? { roots: {} } : {}),
  };
}

/**
 * The part of `declared` that exists in `version`: 2025-03-26 has no elicitation, 2025-06-18
 * only its form mode and sampling without tools; 2025-11-25 has them all. A client that
 * declares more than its revision has is asked only for what the revision defines.
 */
export function withinRevision(
  version: LegacyVersion,
  declared: ClientCapabilities,
): ClientCapabilities {
  const latest = version === "2025-11-25";
  const { elicitation, sampling } = declared;
  const form = has(elicitation) && (has(elicitation?.form) || !has(elicitation?.url));
  const out: ClientCapabilities = {};
  if (has(elicitation) && version !== "2025-03-26") {
    if (latest)
      out.elicitation = {
        ...(form ? { form: {} } : {}),
        ...(has(elicitation?.url) ? { url: {} } : {}),
      };
    else if (form) out.elicitation = { form: {} };
  }
  if (has(sampling)) out.sampling = latest && has(sampling?.tools) ? { tools: {} } : {};
  if (has(declared.roots)) out.roots = {};
  return out;
}
