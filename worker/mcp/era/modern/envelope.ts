import { ClientCapabilitiesSchema } from "../../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { JsonRpcRequest } from "../../../../shared/protocol/messages.ts";
import { isLogLevel, MetaKey } from "../../../../shared/protocol/meta.ts";
import { ImplementationSchema } from "../../../../shared/protocol/primitives.ts";
import { MODERN_VERSION } from "../../../../shared/protocol/versions.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { Envelope } from "../../call/context.ts";
import { checkParamHeaders, checkRoutingHeaders } from "./headers.ts";

function badMeta(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, undefined, 400);
}

/**
 * Reads a 2026 request's envelope, in this order: the required `_meta` keys (-32602), the
 * routing headers against the body (-32020, -32022), the optional `_meta` keys (-32602), and a
 * tool call's `Mcp-Param-*` headers against its arguments (-32020).
 */
export function readEnvelope(
  message: JsonRpcRequest,
  headers: Headers,
  catalog: Catalog,
): Envelope {
  const meta = message.params?._meta;
  if (!isJsonObject(meta)) {
    throw badMeta(
      `Request params must carry a "_meta" object with "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}".`,
    );
  }
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== "string") {
    throw badMeta(
      `_meta is missing "${MetaKey.protocolVersion}" (a string such as "${MODERN_VERSION}").`,
    );
  }
  if (meta[MetaKey.clientCapabilities] === undefined) {
    throw badMeta(
      `_meta is missing "${MetaKey.clientCapabilities}" (send {} when the client declares none).`,
    );
  }
  checkRoutingHeaders(message, version, headers);
  const envelope = { protocolVersion: version, ...readMeta(meta) };
  checkToolHeaders(message, headers, catalog);
  return envelope;
}

function readMeta(meta: Record<string, unknown>): Omit<Envelope, "protocolVersion"> {
  const caps = ClientCapabilitiesSchema.safeParse(meta[MetaKey.clientCapabilities]);
  if (!caps.success) {
    throw badMeta(
      `_meta "${MetaKey.clientCapabilities}" must be a capabilities object (send {} when the client declares none).`,
    );
  }
  const out: Omit<Envelope, "protocolVersion"> = { clientCapabilities: caps.data };
  const info = meta[MetaKey.clientInfo];
  if (info !== undefined) {
    const parsed = ImplementationSchema.safeParse(info);
    if (!parsed.success)
      throw badMeta(
        `_meta "${MetaKey.clientInfo}" must be an object with string "name" and "version".`,
      );
    out.clientInfo = parsed.data;
  }
  const level = meta[MetaKey.logLevel];
  if (level !== undefined) {
    if (!isLogLevel(level))
      throw badMeta(
        `_meta "${MetaKey.logLevel}" must be one of debug, info, notice, warning, error, critical, alert, emergency.`,
      );
    out.logLevel = level;
  }
  const token = meta[MetaKey.progressToken];
  if (token !== undefined) {
    if (typeof token !== "string" && typeof token !== "number")
      throw badMeta(`_meta "progressToken" must be a string or a number.`);
    out.progressToken = token;
  }
  return out;
}

/**
 * A tool call's `Mcp-Param-*` headers, for a tool this server has: an unknown tool or malformed
 * arguments are left to `tools/call` to refuse (-32602).
 */
function checkToolHeaders(message: JsonRpcRequest, headers: Headers, catalog: Catalog): void {
  const params = message.params;
  if (message.method !== "tools/call" || typeof params?.name !== "string") return;
  const tool = catalog.tools.get(params.name);
  const args = params.arguments === undefined ? {} : params.arguments;
  if (tool && isJsonObject(args)) checkParamHeaders(tool.headerParams, args, headers);
}
