import { ErrorCode, type RpcError } from "../../../../shared/protocol/errors.ts";
import type { JsonObject, JsonRpcId } from "../../../../shared/protocol/messages.ts";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import { pagesIn, type List } from "../../catalog/pages.ts";

/** `_meta` with the server's identity, serialized once per catalog. */
const serverMeta = new WeakMap<Catalog, string>();

/** A 2026 result: `resultType`, and the server's identity in `_meta`. */
export function modernResult(result: JsonObject, id: JsonRpcId, catalog: Catalog): string {
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
  const meta = {
    ...(typeof result._meta === "object" ? result._meta : {}),
    [MetaKey.serverInfo]: catalog.serverInfo,
  };
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: { resultType: "complete", ...result, _meta: meta },
  });
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
export function modernStatus(error: RpcError): number {
  return error.httpStatus ?? STATUS[error.code] ?? 200;
}

/** 2026 list pages: `resultType` first, the cache hint and the server's identity last. */
export const modernPage = pagesIn((list: List) => ({
  open: `{"resultType":"complete",`,
  items: list.json,
  close: `,"ttlMs":${list.cache.ttlMs},"cacheScope":${JSON.stringify(list.cache.cacheScope)},"_meta":${JSON.stringify({ [MetaKey.serverInfo]: list.serverInfo })}}`,
}));
