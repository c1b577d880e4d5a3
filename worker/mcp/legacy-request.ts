import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { Header } from "../../shared/protocol/headers.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonRpcRequest } from "../../shared/protocol/messages.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";
import {
  HEADERLESS_LEGACY_VERSION,
  isHandshakeEraVersion,
  isLegacyVersion,
  LEGACY_VERSIONS,
} from "../../shared/protocol/versions.ts";
import type { Era } from "../../shared/protocol/versions.ts";

/**
 * Which era a request belongs to: a `_meta` protocol version, or an `MCP-Protocol-Version`
 * header that is not an older dated version, means modern (even for `initialize`, which 2026
 * removed); everything else, including a headerless `initialize`, is legacy.
 */
export function eraOf(message: JsonRpcRequest, headers: Headers): Era {
  const { params } = message;
  if (isJsonObject(params?._meta) && MetaKey.protocolVersion in params._meta) return "modern";
  const header = headers.get(Header.protocolVersion)?.trim();
  return header === undefined || isHandshakeEraVersion(header) ? "legacy" : "modern";
}

/** The version a legacy request speaks: its `initialize` version, or the header (absent means 2025-03-26). */
export function legacyVersionOf(message: JsonRpcRequest, headers: Headers): string {
  if (message.method === "initialize") {
    const requested = message.params?.protocolVersion;
    return isLegacyVersion(requested) ? requested : LEGACY_VERSIONS[0];
  }
  const header = headers.get(Header.protocolVersion)?.trim();
  if (header === undefined) return HEADERLESS_LEGACY_VERSION;
  if (isLegacyVersion(header)) return header;
  throw new RpcError(
    ErrorCode.InvalidRequest,
    `Unsupported ${Header.protocolVersion} header "${header}". Supported: ${LEGACY_VERSIONS.join(", ")} (after initialize).`,
    { supported: LEGACY_VERSIONS, requested: header },
  );
}

/** A legacy request's progress token (2025 clients also put it in `_meta`). */
export function legacyProgressToken(message: JsonRpcRequest): { progressToken?: string | number } {
  const meta = message.params?._meta;
  const token = isJsonObject(meta) ? meta.progressToken : undefined;
  return typeof token === "string" || typeof token === "number" ? { progressToken: token } : {};
}
