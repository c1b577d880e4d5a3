import {
  ClientCapabilitiesSchema,
  type ClientCapabilities,
} from "../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { decodeHeaderValue, Header } from "../../shared/protocol/headers.ts";
import { isLogLevel, MetaKey, type LogLevel } from "../../shared/protocol/meta.ts";
import { NAME_PARAM } from "../../shared/protocol/methods.ts";
import { ImplementationSchema, type Implementation } from "../../shared/protocol/primitives.ts";
import { MODERN_VERSION, SUPPORTED_VERSIONS } from "../../shared/protocol/versions.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonRpcRequest } from "../../shared/protocol/messages.ts";

/** What a 2026-07-28 request's `_meta` declares, once validated. */
type ModernMeta = {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LogLevel;
  progressToken?: string | number;
};

function badMeta(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, undefined, 400);
}

function mismatch(message: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);
}

/**
 * Checks a modern request's `_meta` envelope and routing headers, in this order: required
 * `_meta` keys (-32602), `MCP-Protocol-Version` against `_meta` (-32020), supported version
 * (-32022), `Mcp-Method` and `Mcp-Name` (-32020), then the optional `_meta` keys (-32602).
 */
export function checkModernRequest(message: JsonRpcRequest, headers: Headers): ModernMeta {
  const { method, params } = message;
  const meta = params?._meta;
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

  const headerVersion = headers.get(Header.protocolVersion)?.trim();
  if (headerVersion === undefined) {
    throw mismatch(
      `the ${Header.protocolVersion} header is required and must equal _meta "${MetaKey.protocolVersion}" ("${version}").`,
    );
  }
  if (headerVersion !== version) {
    throw mismatch(
      `${Header.protocolVersion} header "${headerVersion}" does not match _meta "${MetaKey.protocolVersion}" "${version}".`,
    );
  }
  if (version !== MODERN_VERSION) {
    throw new RpcError(
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version "${version}". This server speaks ${MODERN_VERSION} per request, and ${SUPPORTED_VERSIONS.slice(1).join(", ")} through initialize.`,
      { supported: SUPPORTED_VERSIONS, requested: version },
      400,
    );
  }

  const headerMethod = headers.get(Header.method)?.trim();
  if (headerMethod === undefined)
    throw mismatch(
      `the ${Header.method} header is required and must equal the body's method ("${method}").`,
    );
  if (headerMethod !== method)
    throw mismatch(
      `${Header.method} header "${headerMethod}" does not match the body's method "${method}".`,
    );

  const nameKey = NAME_PARAM[method];
  const bodyName = nameKey ? params?.[nameKey] : undefined;
  if (nameKey && typeof bodyName === "string") {
    const raw = headers.get(Header.name);
    if (raw === null)
      throw mismatch(
        `the ${Header.name} header is required for ${method} and must equal params.${nameKey}.`,
      );
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) throw mismatch(`${Header.name} ${decoded.reason}.`);
    if (decoded.value !== bodyName) {
      throw mismatch(
        `${Header.name} header ${JSON.stringify(decoded.value)} does not match params.${nameKey} ${JSON.stringify(bodyName)}.`,
      );
    }
  }

  return { protocolVersion: version, ...readMeta(meta) };
}

function readMeta(meta: Record<string, unknown>): Omit<ModernMeta, "protocolVersion"> {
  const caps = ClientCapabilitiesSchema.safeParse(meta[MetaKey.clientCapabilities]);
  if (!caps.success) {
    throw badMeta(
      `_meta "${MetaKey.clientCapabilities}" must be a capabilities object (send {} when the client declares none).`,
    );
  }
  const out: Omit<ModernMeta, "protocolVersion"> = { clientCapabilities: caps.data };
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
