import { ErrorCode, RpcError } from "../../../../shared/protocol/errors.ts";
import { Header } from "../../../../shared/protocol/headers.ts";
import type { LegacyMethod } from "../../../../shared/protocol/methods.ts";
import { COMMON_ROUTES, type EntryMethod } from "../../methods/common.ts";
import type { Route } from "../../methods/method.ts";
import type { EraAdapter } from "../era.ts";
import { legacyEnvelope } from "./envelope.ts";
import { mintSessionId, readSessionId } from "./session.ts";
import { missingCapabilities } from "../../input/requirements.ts";
import type { ClientCapabilities } from "../../../../shared/protocol/capabilities.ts";
import { acknowledgeSubscription, initialize, ping, setLevel } from "./methods.ts";
import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import type { JsonObject, JsonRpcId } from "../../../../shared/protocol/messages.ts";
import { pagesIn, type List } from "../../catalog/list.ts";

const ROUTES = {
  ...COMMON_ROUTES,
  initialize: { run: initialize },
  ping: { run: ping },
  "logging/setLevel": { run: setLevel },
  "resources/subscribe": { run: acknowledgeSubscription },
  "resources/unsubscribe": { run: acknowledgeSubscription },
} satisfies Record<Exclude<LegacyMethod, EntryMethod>, Route>;

/** The part of `required` a 2025 client can declare: the kinds of input it may be asked for. */
function inputKinds(required: ClientCapabilities): ClientCapabilities {
  const { elicitation, sampling, roots } = required;
  return {
    ...(elicitation ? { elicitation } : {}),
    ...(sampling ? { sampling } : {}),
    ...(roots ? { roots } : {}),
  };
}

/** Whether a result has nothing a 2025 client must not see (the usual case). */
function plainForLegacy(result: JsonObject): boolean {
  return (
    !("ttlMs" in result) &&
    !("cacheScope" in result) &&
    !("resultType" in result) &&
    !("structuredContent" in result)
  );
}

/**
 * A 2025 result: without what 2026 added (`resultType`, `ttlMs`, `cacheScope`), and without a
 * `structuredContent` that is not an object, which 2025 clients reject (the text block still
 * carries the value).
 */
function legacyMessage(result: JsonObject, id: JsonRpcId): JsonObject {
  if (plainForLegacy(result)) return { jsonrpc: "2.0", id, result };
  const { ttlMs: _ttl, cacheScope: _scope, resultType: _type, ...rest } = result;
  if ("structuredContent" in rest && !isJsonObject(rest.structuredContent))
    delete rest.structuredContent;
  return { jsonrpc: "2.0", id, result: rest };
}

/** The same, serialized; the usual result without building the response object. */
function legacyResult(result: JsonObject, id: JsonRpcId): string {
  if (plainForLegacy(result))
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}`;
  return JSON.stringify(legacyMessage(result, id));
}

/** 2025 clients get 200 for everything but malformed messages: to them a 404 means "session expired". */
function legacyStatus(error: RpcError): number {
  const malformed = error.code === ErrorCode.ParseError || error.code === ErrorCode.InvalidRequest;
  return malformed ? 400 : 200;
}

/**
 * An item of a 2025 list, serialized: 2025 clients reject a whole tool list if one
 * `outputSchema` is not an object schema, so such a schema is left out.
 */
function legacyItem(item: object, json: string): string {
  if (!("outputSchema" in item) || !isJsonObject(item.outputSchema)) return json;
  if (item.outputSchema.type === "object") return json;
  const { outputSchema: _notAnObject, ...rest } = item;
  return JSON.stringify(rest);
}

/** 2025 list pages: the items alone, as 2025 clients accept them. */
const legacyPage = pagesIn((list: List) => ({
  open: "{",
  items: list.items.map((item, i) => legacyItem(item, list.json[i] ?? JSON.stringify(item))),
  close: "}",
}));

/**
 * The 2025 era, served without sessions: `initialize` only settles the version (and gives an
 * `Mcp-Session-Id` that holds no state), every later request stands alone, and input is asked
 * for with requests on the call's stream. Change notifications are not offered: 2025 clients
 * would expect them on a session stream.
 */
export const legacy: EraAdapter = {
  name: "legacy",
  envelope: legacyEnvelope,
  routes: ROUTES,
  featureMethods: false,
  notFoundHints: { "server/discover": "server/discover needs the 2026-07-28 _meta envelope" },
  // Every log message: the level `logging/setLevel` set cannot outlive its request.
  logs() {
    return true;
  },
  // What the client's session says it declared (see `mintSessionId`), for the kinds of input a
  // 2025 client can declare; a tool that needs what it lacks is refused as a 2026 call is.
  requireCapabilities(required, info, what) {
    const missing = missingCapabilities(inputKinds(required), info.clientCapabilities);
    if (!missing) return;
    throw new RpcError(
      ErrorCode.MissingRequiredClientCapability,
      `${what} needs client capabilities ${JSON.stringify(missing)}, which this session's initialize did not declare (or its protocol version ${info.protocolVersion} does not have).`,
      { requiredCapabilities: missing },
      400,
    );
  },
  page: legacyPage,
  resourceNotFound: ErrorCode.LegacyResourceNotFound,
  result: legacyResult,
  resultMessage: legacyMessage,
  status: legacyStatus,
  // The kinds of input this client may be asked for, on its behalf.
  upstreamCapabilities(info) {
    return info.clientCapabilities;
  },
  // Every message, as this era's own logs go (see `logs`).
  upstreamLogLevel() {
    return "debug";
  },
  sessionId: readSessionId,
  // A fresh id for each handshake, which the client sends on every later request: it keeps a
  // caller's cancellations to its session's calls (see `cancellationKey` in call/calling.ts) and
  // brings back what the client declared.
  resultHeaders(info) {
    return info.method === "initialize"
      ? { [Header.sessionId]: mintSessionId(info.clientCapabilities) }
      : undefined;
  },
};
