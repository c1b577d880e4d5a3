import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import { decodeHeaderValue, Header } from "../../../shared/protocol/headers.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { JsonRpcNotification, JsonRpcRequest } from "../../../shared/protocol/messages.ts";
import { MetaKey } from "../../../shared/protocol/meta.ts";
import { isHandshakeEraVersion, type Era } from "../../../shared/protocol/versions.ts";
import type { Target } from "../../auth/policy.ts";
import type { RequestInfo } from "../call/context.ts";
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
  return modernByHeader(headers) ? modern : legacy;
}

/** An `MCP-Protocol-Version` header that is not an older dated version: a 2026 request. */
function modernByHeader(headers: Headers): boolean {
  const header = headers.get(Header.protocolVersion)?.trim();
  return header !== undefined && !isHandshakeEraVersion(header);
}

/**
 * The client capabilities a proxy declares to an upstream server on behalf of this request's
 * client: what a 2026 client declared, and for a 2025 client (whose `initialize` cannot be
 * recalled) every kind of input it may be asked for.
 */
export function upstreamCapabilities(request: RequestInfo): ClientCapabilities {
  return ERAS[request.era].upstreamCapabilities(request);
}

/**
 * What a request's routing headers say it asks for, when they are the 2026-07-28 ones a gateway
 * routes by (`MCP-Protocol-Version` of that era and `Mcp-Method`); undefined otherwise, and
 * then the body decides. The envelope stage later refuses a body that disagrees with them.
 * Asked before the body is read, by the gate (request/route.ts decides).
 */
export function targetOfHeaders(headers: Headers): Target | undefined {
  const method = headers.get(Header.method)?.trim();
  if (!modernByHeader(headers) || !method) return undefined;
  const raw = headers.get(Header.name);
  const decoded = raw === null ? undefined : decodeHeaderValue(raw);
  return { method, name: decoded?.ok ? decoded.value : undefined };
}
