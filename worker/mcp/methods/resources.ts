import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { ListParamsSchema, ReadResourceParamsSchema } from "../../../shared/protocol/params.ts";
import type { Resource } from "../../../shared/protocol/primitives.ts";
import { parseParams, type MethodHandler } from "../call.ts";
import { resourceWire } from "../catalog.ts";
import { ListPages } from "../pages.ts";
import { toContents } from "../read-result.ts";
import { ForwardedResult } from "../results.ts";

export const listResources: MethodHandler = async (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  const { catalog, ctx } = call;
  const pages = catalog.pages.resources;
  if (pages) return pages.page(cursor, ctx.request.era, call.cursors);
  // A template that lists its resources makes the list depend on data, so it is built per call.
  const listed: Resource[] = catalog.staticResources();
  for (const { definition } of catalog.templates) {
    if (definition.list) listed.push(...(await definition.list(ctx)).map((r) => resourceWire(r)));
  }
  return new ListPages(
    "resources",
    listed,
    catalog.pageSize.resources,
    catalog.cache.resources,
    catalog.serverInfo,
  ).page(cursor, ctx.request.era, call.cursors);
};

export const listResourceTemplates: MethodHandler = (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  return call.catalog.pages.resourceTemplates.page(cursor, call.ctx.request.era, call.cursors);
};

export const readResource: MethodHandler = async (call) => {
  const { uri } = parseParams(ReadResourceParamsSchema, call);
  const { catalog, ctx } = call;
  const fixed = catalog.resources.get(uri);
  if (fixed) {
    const value = await fixed.read(ctx);
    if (value instanceof ForwardedResult) return value.json;
    return {
      contents: toContents(uri, value, fixed.mimeType),
      ...(fixed.cache ?? catalog.cache.read),
    };
  }
  for (const { definition, template } of catalog.templates) {
    const vars = template.match(uri);
    if (!vars) continue;
    const value = await definition.read(vars, uri, ctx);
    if (value === undefined) continue;
    if (value instanceof ForwardedResult) return value.json;
    return {
      contents: toContents(uri, value, definition.mimeType),
      ...(definition.cache ?? catalog.cache.read),
    };
  }
  const code =
    ctx.request.era === "legacy" ? ErrorCode.LegacyResourceNotFound : ErrorCode.InvalidParams;
  throw new RpcError(
    code,
    `Resource not found: ${uri}. Call resources/list or resources/templates/list to see what exists.`,
    { uri },
  );
};
