import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import { carriesModernVersion } from "../../../shared/protocol/headers.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { JsonRpcNotification, JsonRpcRequest } from "../../../shared/protocol/messages.ts";
import { MetaKey, type LogLevel } from "../../../shared/protocol/meta.ts";
import type { Era } from "../../../shared/protocol/versions.ts";
import type { RequestInfo } from "../context/context.ts";
import type { EraAdapter } from "./era.ts";
import { legacy } from "./legacy/index.ts";
import { modern } from "./modern/index.ts";

const ERAS: Readonly<Record<Era, EraAdapter>> = { modern, legacy };

/**
 * The era a request (or a notification) belongs to: a `_meta` protocol version, or an
 * `MCP-Protocol-Version` header that is not an older dated version, means 2026 (even for
 * `initialize`, which 2026 removed); everything else, including a headerless `initialize`, is a
 * 2025 request.
 */
export function eraOf(message: JsonRpcRequest | JsonRpcNotification, headers: Headers): EraAdapter {
  const { params } = message;
  if (isJsonObject(params?._meta) && MetaKey.protocolVersion in params._meta) return modern;
  return carriesModernVersion(headers) ? modern : legacy;
}

/**
 * The client capabilities a proxy declares to an upstream server on behalf of this request's
 * client: what a 2026 client declared, and for a 2025 client what its session's `initialize`
 * declared within its revision.
 */
export function upstreamCapabilities(request: RequestInfo): ClientCapabilities {
  return ERAS[request.era].upstreamCapabilities(request);
}

/**
 * The log level a proxy asks an upstream server for on behalf of this request's client: what a
 * 2026 client asked for (none: no log messages), and every level for a 2025 client, which is
 * sent every message (the level its `logging/setLevel` set cannot outlive that request).
 */
export function upstreamLogLevel(request: RequestInfo): LogLevel | undefined {
  return ERAS[request.era].upstreamLogLevel(request);
}
