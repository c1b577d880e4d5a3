import { isJsonObject } from "../../../../shared/jsonrpc.ts";
import { ErrorCode, type RpcError } from "../../../../shared/protocol/errors.ts";
import type { JsonObject, JsonRpcId } from "../../../../shared/protocol/messages.ts";
import { pagesIn, type List } from "../../catalog/pages.ts";

/**
 * A 2025 result: without what 2026 added (`resultType`, `ttlMs`, `cacheScope`), and without a
 * `structuredContent` that is not an object, which 2025 clients reject (the text block still
 * carries the value).
 */
export function legacyResult(result: JsonObject, id: JsonRpcId): string {
  if (
    !("ttlMs" in result) &&
    !("cacheScope" in result) &&
    !("resultType" in result) &&
    !("structuredContent" in result)
  )
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}`;
  const { ttlMs: _ttl, cacheScope: _scope, resultType: _type, ...rest } = result;
  if ("structuredContent" in rest && !isJsonObject(rest.structuredContent))
    delete rest.structuredContent;
  return JSON.stringify({ jsonrpc: "2.0", id, result: rest });
}

/** 2025 clients get 200 for everything but malformed messages: to them a 404 means "session expired". */
export function legacyStatus(error: RpcError): number {
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
export const legacyPage = pagesIn((list: List) => ({
  open: "{",
  items: list.items.map((item, i) => legacyItem(item, list.json[i] ?? JSON.stringify(item))),
  close: "}",
}));
