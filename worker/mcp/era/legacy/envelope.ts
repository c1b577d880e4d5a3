import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { JsonRpcRequest } from "../../../../shared/protocol/messages.ts";
import {
  HEADERLESS_LEGACY_VERSION,
  isLegacyVersion,
  LEGACY_VERSIONS,
} from "../../../../shared/protocol/versions.ts";
import { HttpError } from "../../../http/http-error.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { Envelope } from "../../call/context.ts";
import type { Enveloped } from "../era.ts";

/**
 * The envelope stage of a 2025 request: the version it speaks, its session id, and what the
 * server advertises (change notifications are not offered: they need a listen stream, which
 * 2025 clients expect on a session).
 */
export function legacyEnvelope(
  message: JsonRpcRequest,
  headers: Headers,
  catalog: Catalog,
): Enveloped {
  const envelope = readLegacyEnvelope(message, headers);
  const sessionId = readSessionId(headers);
  // Input is asked for with requests on the call's stream: there are no rounds to answer.
  return { envelope, capabilities: catalog.capabilities, sessionId, answers: false };
}

/**
 * Reads a 2025 request: the version it speaks (its `initialize` version, or the header; absent
 * means 2025-03-26) and its progress token. The capabilities it declared in `initialize` cannot
 * be recalled, so none are known.
 */
function readLegacyEnvelope(message: JsonRpcRequest, headers: Headers): Envelope {
  const meta = message.params?._meta;
  const token = isJsonObject(meta) ? meta.progressToken : undefined;
  const header = headers.get(Header.protocolVersion)?.trim();
  const requested = message.method === "initialize" ? message.params?.protocolVersion : header;
  let protocolVersion: string;
  if (isLegacyVersion(requested)) protocolVersion = requested;
  else if (message.method === "initialize") protocolVersion = LEGACY_VERSIONS[0];
  else if (header === undefined) protocolVersion = HEADERLESS_LEGACY_VERSION;
  else
    throw new RpcError(
      ErrorCode.InvalidRequest,
      `Unsupported ${Header.protocolVersion} header "${header}". Supported: ${LEGACY_VERSIONS.join(", ")} (after initialize).`,
      { supported: LEGACY_VERSIONS, requested: header },
    );
  return {
    protocolVersion,
    clientCapabilities: {},
    ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
  };
}

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
