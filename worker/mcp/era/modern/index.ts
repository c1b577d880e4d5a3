import { ErrorCode, type RpcError } from "../../../../shared/protocol/errors.ts";
import { logLevelPasses, MetaKey } from "../../../../shared/protocol/meta.ts";
import type { ModernMethod } from "../../../../shared/protocol/methods.ts";
import { COMMON_ROUTES, type EntryMethod } from "../../methods/common.ts";
import { discover } from "../../methods/discover.ts";
import type { Route } from "../../methods/method.ts";
import { requireCapabilities } from "../../input/requirements.ts";
import type { EraAdapter } from "../era.ts";
import { modernEnvelope } from "./envelope.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import type { JsonObject, JsonRpcId } from "../../../../shared/protocol/messages.ts";
import { pagesIn, type List } from "../../catalog/list.ts";

/** The methods of features a server links by naming them (tasks, listen: `define/features.ts`). */
type FeatureMethod = "subscriptions/listen" | `tasks/${string}`;

const ROUTES = {
  ...COMMON_ROUTES,
  "server/discover": { run: discover },
} satisfies Record<Exclude<ModernMethod, FeatureMethod | EntryMethod>, Route>;

/** `_meta` with the server's identity, serialized once per catalog. */
const serverMeta = new WeakMap<Catalog, string>();

/** A 2026 result: `resultType`, and the server's identity in `_meta`. */
function modernResult(result: JsonObject, id: JsonRpcId, catalog: Catalog): string {
  if (!("_meta" in result) && !("resultType" in result)) {
    // The usual result: its members serialized once, between the envelope's serialized parts.
    let meta = serverMeta.get(catalog);
    if (meta === undefined) {
      meta = JSON.stringify({ [MetaKey.serverInfo]: catalog.serverInfo });
      serverMeta.set(catalog, meta);
    }
    const members = JSON.stringify(result).slice(1, -1);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete",${members}${members ? "," : ""}"_meta":${meta}}}`;
  }
  return JSON.stringify(modernMessage(result, id, catalog));
}

/** The same response as an object. */
function modernMessage(result: JsonObject, id: JsonRpcId, catalog: Catalog): JsonObject {
  const meta = {
    ...(typeof result._meta === "object" ? result._meta : {}),
    [MetaKey.serverInfo]: catalog.serverInfo,
  };
  return { jsonrpc: "2.0", id, result: { resultType: "complete", ...result, _meta: meta } };
}

const STATUS: Readonly<Record<number, number>> = {
  [ErrorCode.ParseError]: 400,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.HeaderMismatch]: 400,
  [ErrorCode.MissingRequiredClientCapability]: 400,
  [ErrorCode.UnsupportedProtocolVersion]: 400,
};

/** 2026 errors carry the HTTP status the transport fixes for them; the rest are 200. */
function modernStatus(error: RpcError): number {
  return error.httpStatus ?? STATUS[error.code] ?? 200;
}

/** 2026 list pages: `resultType` first, the cache hint and the server's identity last. */
const modernPage = pagesIn((list: List) => ({
  open: `{"resultType":"complete",`,
  items: list.json,
  close: `,"ttlMs":${list.cache.ttlMs},"cacheScope":${JSON.stringify(list.cache.cacheScope)},"_meta":${JSON.stringify({ [MetaKey.serverInfo]: list.serverInfo })}}`,
}));

/**
 * The 2026-07-28 era: every request stands alone, carrying its version and capabilities in
 * `_meta` and its method and names in headers; input is asked for with `input_required`.
 */
export const modern: EraAdapter = {
  name: "modern",
  envelope: modernEnvelope,
  routes: ROUTES,
  featureMethods: true,
  notFoundHints: {},
  // A client hears log messages at or above the level its `_meta` asked for, and no others.
  logs(level, info) {
    return info.logLevel !== undefined && logLevelPasses(level, info.logLevel);
  },
  requireCapabilities(required, info, what) {
    requireCapabilities(required, info.clientCapabilities, what);
  },
  page: modernPage,
  resourceNotFound: ErrorCode.InvalidParams,
  result: modernResult,
  resultMessage: modernMessage,
  status: modernStatus,
  upstreamCapabilities(info) {
    return info.clientCapabilities;
  },
  upstreamLogLevel(info) {
    return info.logLevel;
  },
  // Sessions are gone: an Mcp-Session-Id is ignored, and none is ever minted.
  sessionId() {
    return undefined;
  },
  resultHeaders() {
    return undefined;
  },
};
