import {
  TASKS_EXTENSION,
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
import { MODERN_VERSION, SUPPORTED_VERSIONS } from "../../../../shared/protocol/versions.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { Envelope } from "../../context/context.ts";
import type { Coordination } from "../../ports.ts";
import { readCapabilities, readImplementation } from "../declared.ts";
import type { Enveloped } from "../era.ts";

/** A 400 of the envelope: -32602 for `_meta`, -32020 (a header against the body) otherwise. */
function refuse(message: string, code: number = ErrorCode.HeaderMismatch, data?: unknown): never {
  const prefix = code === ErrorCode.HeaderMismatch ? "Header mismatch: " : "";
  throw new RpcError(code, prefix + message, data, 400);
}

function badMeta(message: string): never {
  refuse(message, ErrorCode.InvalidParams);
}

/**
 * The envelope stage of a 2026 request, in this order: the required `_meta` keys (-32602), the
 * routing headers against the body (-32020, -32022), the optional `_meta` keys (-32602), and a
 * tool call's `Mcp-Param-*` headers against its arguments (-32020); then what the server
 * advertises. Sessions are gone: an `Mcp-Session-Id` is ignored.
 */
export function modernEnvelope(
  message: JsonRpcRequest,
  headers: Headers,
  catalog: Catalog,
  coordination: Coordination,
): Enveloped {
  const { method } = message;
  const params: JsonObject = message.params ?? {};
  const meta = params._meta;
  const {
    protocolVersion: V,
    clientCapabilities: C,
    clientInfo,
    logLevel,
    progressToken,
  } = MetaKey;
  if (!isJsonObject(meta))
    badMeta(`Request params must carry a "_meta" object with "${V}" and "${C}".`);
  const version = meta[V];
  if (typeof version !== "string")
    badMeta(`_meta is missing "${V}" (a string such as "${MODERN_VERSION}").`);
  const declared = meta[C];
  if (declared === undefined)
    badMeta(`_meta is missing "${C}" (send {} when the client declares none).`);

  // The routing headers, each equal to what the body says.
  routed(headers, Header.protocolVersion, version, `_meta "${V}"`);
  if (version !== MODERN_VERSION) {
    refuse(
      `Unsupported protocol version "${version}". This server speaks ${MODERN_VERSION} per request, and ${SUPPORTED_VERSIONS.slice(1).join(", ")} through initialize.`,
      ErrorCode.UnsupportedProtocolVersion,
      { supported: SUPPORTED_VERSIONS, requested: version },
    );
  }
  routed(headers, Header.method, method, "the body's method");
  const nameKey = NAME_PARAM[method];
  const name = nameKey && params[nameKey];
  if (typeof name === "string") routed(headers, Header.name, name, `params.${nameKey}`, true);

  const clientCapabilities = readCapabilities(declared);
  if (clientCapabilities === undefined)
    badMeta(`_meta "${C}" must be a capabilities object (send {} when the client declares none).`);
  const envelope: Envelope = { protocolVersion: version, clientCapabilities };
  const info = meta[clientInfo];
  if (info !== undefined) {
    envelope.clientInfo = readImplementation(info);
    if (!envelope.clientInfo)
      badMeta(`_meta "${clientInfo}" must be an object with string "name" and "version".`);
  }
  const level = meta[logLevel];
  if (level !== undefined) {
    if (!isLogLevel(level))
      badMeta(
        `_meta "${logLevel}" must be one of debug, info, notice, warning, error, critical, alert, emergency.`,
      );
    envelope.logLevel = level;
  }
  const token = meta[progressToken];
  if (token !== undefined) {
    if (typeof token !== "string" && typeof token !== "number")
      badMeta(`_meta "${progressToken}" must be a string or a number.`);
    envelope.progressToken = token;
  }

  // A tool call's `Mcp-Param-*` headers, for a tool this server has: an unknown tool or
  // malformed arguments are left to `tools/call` to refuse (-32602).
  const tool = method === "tools/call" && typeof name === "string" && catalog.tools.get(name);
  const args = params.arguments === undefined ? {} : params.arguments;
  if (tool && tool.headerParams.length && isJsonObject(args))
    paramHeaders(tool.headerParams, args, headers);

  const answers = params.inputResponses !== undefined || params.requestState !== undefined;
  return {
    envelope,
    capabilities: modernCapabilities(catalog, coordination),
    sessionId: undefined,
    answers,
  };
}

/**
 * One routing header against the body's `want` (`what` names where the body says it): required,
 * and equal once trimmed (`Mcp-Name` once decoded, as it may be base64).
 */
function routed(headers: Headers, name: string, want: string, what: string, decode?: true): void {
  const raw = headers.get(name);
  if (raw === null) refuse(`the ${name} header is required and must equal ${what} ("${want}").`);
  let value = raw.trim();
  if (decode) {
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) refuse(`${name} ${decoded.reason}.`);
    value = decoded.value;
  }
  if (value !== want)
    refuse(
      `${name} header ${JSON.stringify(value)} does not match ${what} ${JSON.stringify(want)}.`,
    );
}

/** Checks every `Mcp-Param-*` header a tool declares against the arguments in the body (-32020). */
function paramHeaders(params: readonly HeaderParam[], args: JsonObject, headers: Headers): void {
  for (const { header, path, type } of params) {
    const name = `${Header.paramPrefix}${header}`;
    const raw = headers.get(name);
    const value = headerArgument(args, path);
    const where = `argument "${path.join(".")}"`;
    if (raw === null) {
      if (value !== undefined)
        refuse(`${name} is required because ${where} is present in the body.`);
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) refuse(`${name} ${decoded.reason}.`);
    if (value === undefined) refuse(`${name} is set but ${where} is absent from the body.`);
    const given = decoded.value;
    // Integers compare numerically: "42.0" and 42 are the same value.
    const same =
      type === "string"
        ? given === value
        : type === "boolean"
          ? given === String(value)
          : given.trim() !== "" && Number(given) === value;
    if (!same)
      refuse(
        `${name} value ${JSON.stringify(given)} does not match ${where} (${JSON.stringify(value)}).`,
      );
  }
}

const advertised = new WeakMap<Catalog, Map<string, ServerCapabilities>>();

/**
 * What a server advertises to 2026 clients: change notifications and resource subscriptions
 * when it offers listen streams; tasks when it offers them (each feature it names in its
 * definition says when: see `define/features.ts`). Computed once per catalog and set of ports.
 */
export function modernCapabilities(
  catalog: Catalog,
  coordination: Coordination,
): ServerCapabilities {
  const key = `${coordination.listen ? "l" : ""}${coordination.tasks ? "t" : ""}`;
  let byPorts = advertised.get(catalog);
  if (!byPorts) advertised.set(catalog, (byPorts = new Map()));
  let caps = byPorts.get(key);
  if (!caps) {
    const base = catalog.capabilities;
    const { listen, tasks } = catalog.definition;
    caps = { ...base };
    if (listen?.offered(coordination, catalog)) {
      if (base.tools) caps.tools = { listChanged: true };
      if (base.prompts) caps.prompts = { listChanged: true };
      if (base.resources) caps.resources = { subscribe: true, listChanged: true };
    }
    if (tasks?.offered(coordination, catalog))
      caps.extensions = { ...base.extensions, [TASKS_EXTENSION]: {} };
    byPorts.set(key, caps);
  }
  return caps;
}
