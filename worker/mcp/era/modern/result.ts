import { ErrorCode, type RpcError } from "../../../../shared/protocol/errors.ts";
import type { JsonObject, JsonRpcId } from "../../../../shared/protocol/messages.ts";
import { MetaKey } from "../../../../shared/protocol/meta.ts";
import type { Catalog } from "../../catalog/catalog.ts";
import { pagesIn, type List } from "../../catalog/pages.ts";

/** A 2026 result: `resultType`, and the server's identity in `_meta`. */
export function modernResult(result: JsonObject, id: JsonRpcId, catalog: Catalog): string {
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
