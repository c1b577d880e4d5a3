import {
  TASKS_EXTENSION,
  type ClientCapabilities,
  type ServerCapabilities,
} from "../../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import {
  headerArgument,
  type HeaderParam,
} from "../../../../shared/protocol/header-declarations.ts";
import { decodeHeaderValue, Header } from "../../../../shared/protocol/headers.ts";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { JsonObject, JsonRpcRequest } from "../../../../shared/protocol/messages.ts";
import { isLogLevel, MetaKey } from "../../../../shared/protocol/meta.ts";
import { NAME_PARAM } from "../../../../shared/protocol/methods.ts";
import type { Implementation } from "../../../../shared/protocol/primitives.ts";
import { MODERN_VERSION, SUPPORTED_VERSIONS } from "../../../../shared/protocol/versions.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { Envelope } from "../../context/context.ts";
import type { Coordination } from "../../ports.ts";
import { readCapabilities, readImplementation } from "../declared.ts";
import type { Enveloped } from "../era.ts";

function badMeta(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, undefined, 400);
}

/**
 * The envelope stage of a 2026 request: its envelope, and what the server advertises. Sessions
 * are gone: an `Mcp-Session-Id` is ignored.
 */
export function modernEnvelope(
  message: JsonRpcRequest,
  headers: Headers,
  catalog: Catalog,
  coordination: Coordination,
): Enveloped {
  const envelope = readEnvelope(message, headers, catalog);
  const capabilities = modernCapabilities(catalog, coordination);
  const params = message.params;
  const answers = params?.inputResponses !== undefined || params?.requestState !== undefined;
  return { envelope, capabilities, sessionId: undefined, answers };
}

/**
 * Reads a 2026 request's envelope, in this order: the required `_meta` keys (-32602), the
 * routing headers against the body (-32020, -32022), the optional `_meta` keys (-32602), and a
 * tool call's `Mcp-Param-*` headers against its arguments (-32020).
 */
function readEnvelope(message: JsonRpcRequest, headers: Headers, catalog: Catalog): Envelope {
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
  const out: Omit<Envelope, "protocolVersion"> = {
    clientCapabilities: capabilitiesIn(meta[MetaKey.clientCapabilities]),
  };
  const info = meta[MetaKey.clientInfo];
  if (info !== undefined) out.clientInfo = clientInfoIn(info);
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

function capabilitiesIn(value: unknown): ClientCapabilities {
  const caps = readCapabilities(value);
  if (caps === undefined) {
    throw badMeta(
      `_meta "${MetaKey.clientCapabilities}" must be a capabilities object (send {} when the client declares none).`,
    );
  }
  return caps;
}

function clientInfoIn(value: unknown): Implementation {
  const info = readImplementation(value);
  if (info === undefined)
    throw badMeta(
      `_meta "${MetaKey.clientInfo}" must be an object with string "name" and "version".`,
    );
  return info;
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

function mismatch(message: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);
}

/**
 * Checks a 2026 request's routing headers against its body, in this order: `MCP-Protocol-Version`
 * against the `_meta` version (-32020), the version itself (-32022), `Mcp-Method` (-32020), and
 * `Mcp-Name` where the method names something (-32020).
 */
function checkRoutingHeaders(message: JsonRpcRequest, version: string, headers: Headers): void {
  const { method, params } = message;
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
}

/** Checks every `Mcp-Param-*` header a tool declares against the arguments in the body (-32020). */
function checkParamHeaders(
  params: readonly HeaderParam[],
  args: JsonObject,
  headers: Headers,
): void {
  for (const param of params) {
    const name = `${Header.paramPrefix}${param.header}`;
    const raw = headers.get(name);
    const value = headerArgument(args, param.path);
    const where = `argument "${param.path.join(".")}"`;
    if (raw === null) {
      if (value !== undefined)
        throw mismatch(`${name} is required because ${where} is present in the body.`);
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) throw mismatch(`${name} ${decoded.reason}.`);
    if (value === undefined) throw mismatch(`${name} is set but ${where} is absent from the body.`);
    if (!matches(param, decoded.value, value)) {
      throw mismatch(
        `${name} value ${JSON.stringify(decoded.value)} does not match ${where} (${JSON.stringify(value)}).`,
      );
    }
  }
}

function matches(param: HeaderParam, header: string, value: unknown): boolean {
  switch (param.type) {
    case "string":
      return header === value;
    case "boolean":
      return header === String(value);
    case "integer":
      // Integers compare numerically: "42.0" and 42 are the same value.
      return header.trim() !== "" && Number(header) === value;
  }
}

const advertised = new WeakMap<Catalog, Map<string, ServerCapabilities>>();

/**
 * What a server advertises to 2026 clients: change notifications and resource subscriptions
 * when it offers listen streams; tasks when it offers them (each feature it names in its
 * definition says when: see `define/features.ts`). Computed once per catalog and set of ports.
 */
function modernCapabilities(catalog: Catalog, coordination: Coordination): ServerCapabilities {
  const key = `${coordination.listen ? "l" : ""}${coordination.tasks ? "t" : ""}`;
  let byPorts = advertised.get(catalog);
  if (!byPorts) advertised.set(catalog, (byPorts = new Map()));
  let caps = byPorts.get(key);
  if (!caps) byPorts.set(key, (caps = build(catalog, coordination)));
  return caps;
}

function build(catalog: Catalog, coordination: Coordination): ServerCapabilities {
  const base = catalog.capabilities;
  const { listen, tasks } = catalog.definition;
  const caps: ServerCapabilities = { ...base };
  if (listen?.offered(coordination, catalog)) {
    if (base.tools) caps.tools = { listChanged: true };
    if (base.prompts) caps.prompts = { listChanged: true };
    if (base.resources) caps.resources = { subscribe: true, listChanged: true };
  }
  if (tasks?.offered(coordination, catalog))
    caps.extensions = { ...base.extensions, [TASKS_EXTENSION]: {} };
  return caps;
}
