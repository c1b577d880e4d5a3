import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { JsonRpcRequest } from "../../../../shared/protocol/messages.ts";
import {
  HEADERLESS_LEGACY_VERSION,
  isLegacyVersion,
  LEGACY_VERSIONS,
} from "../../../../shared/protocol/versions.ts";
import type { Envelope } from "../../call/context.ts";

/**
 * Reads a 2025 request: the version it speaks (its `initialize` version, or the header; absent
 * means 2025-03-26) and its progress token. The capabilities it declared in `initialize` cannot
 * be recalled, so none are known.
 */
export function readLegacyEnvelope(message: JsonRpcRequest, headers: Headers): Envelope {
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
