import { RpcError } from "../../../shared/protocol/errors.ts";
import { ListParamsSchema, ReadResourceParamsSchema } from "../../../shared/protocol/params.ts";
import type { Resource } from "../../../shared/protocol/primitives.ts";
import { resourceWire } from "../catalog/compile.ts";
import { ForwardedResult } from "../results/ready.ts";
import { toContents } from "../results/resource.ts";
import { parseParams, type MethodHandler } from "./method.ts";

export const listResources: MethodHandler = async (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  const { catalog, ctx } = call;
  if (catalog.lists.resources) return call.era.page(catalog.lists.resources, cursor, call.seals);
  // A template that lists its resources makes the list depend on data, so it is built per call.
  const listed: Resource[] = catalog.staticResources();
  for (const { definition } of catalog.templates) {
    if (definition.list) listed.push(...(await definition.list(ctx)).map((r) => resourceWire(r)));
  }
  return call.era.page(catalog.listFor("resources", listed), cursor, call.seals);
};

export const listResourceTemplates: MethodHandler = (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  return call.era.page(call.catalog.lists.resourceTemplates, cursor, call.seals);
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
  throw new RpcError(
    call.era.resourceNotFound,
    `Resource not found: ${uri}. Call resources/list or resources/templates/list to see what exists.`,
    { uri },
  );
};
