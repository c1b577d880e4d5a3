import { RpcError } from "../../../shared/protocol/errors.ts";
import { ListParamsSchema, ReadResourceParamsSchema } from "../../../shared/protocol/params.ts";
import type { Resource } from "../../../shared/protocol/primitives.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { resourceWire, templateWire } from "../catalog/compile.ts";
import type { List } from "../catalog/list.ts";
import { ForwardedResult } from "../results/ready.ts";
import { toContents } from "../results/resource.ts";
import { parseParams, type MethodHandler } from "./method.ts";

// A catalog's resources and templates lists, made by their first list request. The resources
// list is made per call when a template lists resources, which makes it depend on data.
const built = new WeakMap<Catalog, { resources: List | undefined; templates: List }>();

function listsOf(catalog: Catalog): { resources: List | undefined; templates: List } {
  let lists = built.get(catalog);
  if (!lists) {
    const templates = catalog.templates.map((t) => templateWire(t.definition));
    lists = {
      resources: catalog.templates.some((t) => t.definition.list)
        ? undefined
        : catalog.listFor("resources", fixedResources(catalog)),
      templates: catalog.listFor("resourceTemplates", templates),
    };
    built.set(catalog, lists);
  }
  return lists;
}

/** The fixed resources, in definition order. */
const fixedResources = (catalog: Catalog): Resource[] =>
  [...catalog.resources.values()].map((r) => resourceWire(r));

export const listResources: MethodHandler = async (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  const { catalog, ctx } = call;
  const { resources } = listsOf(catalog);
  if (resources) return call.era.page(resources, cursor, call.seals);
  const listed = fixedResources(catalog);
  for (const { definition } of catalog.templates) {
    if (definition.list) listed.push(...(await definition.list(ctx)).map((r) => resourceWire(r)));
  }
  return call.era.page(catalog.listFor("resources", listed), cursor, call.seals);
};

export const listResourceTemplates: MethodHandler = (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  return call.era.page(listsOf(call.catalog).templates, cursor, call.seals);
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
