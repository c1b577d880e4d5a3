import { toBase64Url } from "../../../../shared/base64.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import { HttpError } from "../../../http/http-error.ts";

/**
 * The longest `Mcp-Session-Id` accepted. The ids minted here are 22 characters; the bound leaves
 * room for ids minted by a gateway in front, and keeps a cancellation key (a Durable Object's
 * name) small. A longer or otherwise malformed id is refused with 400 rather than ignored: a
 * client that ignored it would find its cancellations silently going nowhere.
 */
export const MAX_SESSION_ID_LENGTH = 256;

// The 2025 transport: a session id holds visible ASCII only (0x21 to 0x7E).
const SESSION_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_SESSION_ID_LENGTH}}$`);

/**
 * A fresh `Mcp-Session-Id` for a 2025 `initialize` reply: 128 random bits, base64url. Nothing is
 * stored: the id only names the scope the client's later cancellations reach (an anonymous
 * caller's `notifications/cancelled` reaches only calls made with the same id).
 */
export function mintSessionId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

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
