import { defineServer, DefinitionError, type ServerDefinition } from "../mcp/index.ts";
import { errorText } from "../../shared/error-text.ts";

/** An upstream's item the hub could not serve, and why (for the status resource). */
export type Dropped = { kind: string; name: string; reason: string };

type Item = { kind: string; name: string; upstream: string | undefined; alone: ServerDefinition };

/**
 * The definition without the items the runtime cannot serve (a tool whose input schema is not
 * an object, a bad `x-mcp-header`, ...), and those items by upstream. One upstream's bad item
 * must cost that item, not the hub: a definition that throws would answer every hub request
 * with an internal error. Each item is checked alone only when the whole does not build.
 */
export function servable(
  definition: ServerDefinition,
  upstreamOf: (item: object) => string | undefined,
): { definition: ServerDefinition; dropped: Map<string, Dropped[]> } {
  const dropped = new Map<string, Dropped[]>();
  try {
    defineServer(definition);
    return { definition, dropped };
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
  }
  const base = { name: definition.name, version: definition.version };
  const items: Item[] = [
    ...(definition.tools ?? []).map((t) => ({
      kind: "tool",
      name: t.name,
      upstream: upstreamOf(t),
      alone: { ...base, tools: [t] },
    })),
    ...(definition.prompts ?? []).map((p) => ({
      kind: "prompt",
      name: p.name,
      upstream: upstreamOf(p),
      alone: { ...base, prompts: [p] },
    })),
    ...(definition.resources ?? []).map((r) => ({
      kind: "resource",
      name: r.uri,
      upstream: upstreamOf(r),
      alone: { ...base, resources: [r] },
    })),
    ...(definition.resourceTemplates ?? []).map((t) => ({
      kind: "resourceTemplate",
      name: t.uriTemplate,
      upstream: upstreamOf(t),
      alone: { ...base, resourceTemplates: [t] },
    })),
  ];
  const bad = new Set<unknown>();
  for (const item of items) {
    try {
      defineServer(item.alone);
    } catch (error) {
      const only = item.alone.tools ?? item.alone.prompts ?? item.alone.resources;
      bad.add((only ?? item.alone.resourceTemplates)?.[0]);
      const reason =
        error instanceof DefinitionError ? error.problems.join("; ") : errorText(error);
      const key = item.upstream ?? "";
      dropped.set(key, [...(dropped.get(key) ?? []), { kind: item.kind, name: item.name, reason }]);
    }
  }
  const keep = <T>(list: T[] | undefined) => list?.filter((x) => !bad.has(x));
  return {
    definition: {
      ...definition,
      tools: keep(definition.tools),
      prompts: keep(definition.prompts),
      resources: keep(definition.resources),
      resourceTemplates: keep(definition.resourceTemplates),
    },
    dropped,
  };
}
