import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { JsonRpcRequest } from "../../../../shared/protocol/messages.ts";
import {
  HEADERLESS_LEGACY_VERSION,
  isLegacyVersion,
  LEGACY_VERSIONS,
  type LegacyVersion,
} from "../../../../shared/protocol/versions.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { Envelope } from "../../context/context.ts";
import { readCapabilities } from "../declared.ts";
import type { Enveloped } from "../era.ts";
import { declaredIn, readSessionId, withinRevision } from "./session.ts";

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
  const sessionId = readSessionId(headers);
  const envelope = readLegacyEnvelope(message, headers, sessionId);
  // Input is asked for with requests on the call's stream: there are no rounds to answer.
  return { envelope, capabilities: catalog.capabilities, sessionId, answers: false };
}

/**
 * Reads a 2025 request: the version it speaks (its `initialize` version, or the header; absent
 * means 2025-03-26), its progress token, and what the client may be asked for: what its
 * `initialize` declares, or on a later request what its session id brings back (see
 * `mintSessionId`), within what the version defines.
 */
function readLegacyEnvelope(
  message: JsonRpcRequest,
  headers: Headers,
  sessionId: string | undefined,
): Envelope {
  const meta = message.params?._meta;
  const token = isJsonObject(meta) ? meta.progressToken : undefined;
  const header = headers.get(Header.protocolVersion)?.trim();
  const requested = message.method === "initialize" ? message.params?.protocolVersion : header;
  let protocolVersion: LegacyVersion;
  if (isLegacyVersion(requested)) protocolVersion = requested;
  else if (message.method === "initialize") protocolVersion = LEGACY_VERSIONS[0];
  else if (header === undefined) protocolVersion = HEADERLESS_LEGACY_VERSION;
  else
    throw new RpcError(
      ErrorCode.InvalidRequest,
      `Unsupported ${Header.protocolVersion} header "${header}". Supported: ${LEGACY_VERSIONS.join(", ")} (after initialize).`,
      { supported: LEGACY_VERSIONS, requested: header },
    );
  const declared =
    message.method === "initialize"
      ? (readCapabilities(message.params?.capabilities) ?? {})
      : declaredIn(sessionId);
  return {
    protocolVersion,
    clientCapabilities: withinRevision(protocolVersion, declared),
    ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
  };
}
