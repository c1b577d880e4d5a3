import type { Prompt, Resource, ResourceTemplate, Tool } from "../protocol/primitives.ts";
import type { CacheHint } from "../protocol/results.ts";
import { UriTemplate } from "../uri-template.ts";
import { errorText } from "../error-text.ts";
import { isValidName, prefixed, type Naming } from "./names.ts";

/** A cache hint as lists and reads carry it. */

/** One upstream's lists, as fetched. */
export type UpstreamCatalog = {
  upstream: string;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  cache: CacheHint;
};

/** An entry of the merged catalog, with where it came from and its name there. */
export type Entry<T> = { item: T; upstream: string; original: string };

/** A resource template of the merged catalog, with its template parsed once. */
export type TemplateEntry = Entry<ResourceTemplate> & { template: UriTemplate };

/** Two or more upstreams wanting the same name or URI: none of them is listed, or only `kept`. */
export type Collision = {
  kind: "tool" | "prompt" | "resource" | "resourceTemplate";
  key: string;
  upstreams: string[];
  /** The trusted upstream whose entry stays. */
  kept?: string;
};

/** Something the hub left out, and why (a name clients would refuse, a template that does not parse). */
export type Exclusion = { kind: Collision["kind"]; upstream: string; name: string; reason: string };

export type MergedCatalog = {
  tools: Entry<Tool>[];
  prompts: Entry<Prompt>[];
  resources: Entry<Resource>[];
  resourceTemplates: TemplateEntry[];
  collisions: Collision[];
  excluded: Exclusion[];
  /** The merged lists' hint: the smallest ttlMs of the upstreams, private if any is private. */
  cache: CacheHint;
};

/** Smallest time to live; private when any is private. */
export function mergeCacheHints(hints: readonly CacheHint[]): CacheHint {
  if (hints.length === 0) return { ttlMs: 0, cacheScope: "private" };
  return {
    ttlMs: Math.min(...hints.map((h) => Math.max(0, h.ttlMs))),
    cacheScope: hints.some((h) => h.cacheScope === "private") ? "private" : "public",
  };
}

/**
 * Merges entries keyed by name or URI in upstream order. A key claimed by two upstreams is left
 * out for all of them and reported: a hub must never let one upstream silently shadow another.
 * Where exactly one of the claimants is `trusted` (a server of the hub's own Worker), its entry
 * stays and the others' are left out (reported too), so no outside server can take it away.
 */
function mergeKeyed<E extends Entry<unknown>>(
  kind: Collision["kind"],
  entries: E[],
  keyOf: (entry: E) => string,
  collisions: Collision[],
  trusted: ReadonlySet<string>,
): E[] {
  const owners = new Map<string, Set<string>>();
  for (const entry of entries) {
    const key = keyOf(entry);
    owners.set(key, (owners.get(key) ?? new Set()).add(entry.upstream));
  }
  const kept = new Map<string, string>();
  for (const [key, upstreams] of owners) {
    if (upstreams.size < 2) continue;
    const own = [...upstreams].filter((u) => trusted.has(u));
    if (own.length === 1) kept.set(key, own[0]!);
    collisions.push({
      kind,
      key,
      upstreams: [...upstreams],
      ...(own.length === 1 && { kept: own[0] }),
    });
  }
  return entries.filter((entry) => {
    const key = keyOf(entry);
    return owners.get(key)?.size === 1 || kept.get(key) === entry.upstream;
  });
}

/**
 * The hub's catalog: tools and prompts renamed `<upstream><sep><name>`, resources and templates
 * kept at their own URIs (so links and subscriptions still work), in upstream order.
 */
export function mergeCatalogs(
  upstreams: readonly UpstreamCatalog[],
  naming: Naming,
  trusted: ReadonlySet<string> = new Set(),
): MergedCatalog {
  const collisions: Collision[] = [];
  const excluded: Exclusion[] = [];
  const renamed = <T extends { name: string }>(
    kind: "tool" | "prompt",
    pick: (u: UpstreamCatalog) => T[],
  ): Entry<T>[] =>
    upstreams.flatMap((u) =>
      pick(u).flatMap((item) => {
        const name = prefixed(u.upstream, item.name, naming);
        if (isValidName(name))
          return [{ item: { ...item, name }, upstream: u.upstream, original: item.name }];
        excluded.push({
          kind,
          upstream: u.upstream,
          name: item.name,
          reason: `"${name}" is not a valid name (1-128 of A-Z a-z 0-9 _ . -)`,
        });
        return [];
      }),
    );
  // `extra` may throw (a template that does not parse): the item is then left out, saying why.
  const kept = <T, X extends object>(
    kind: "resource" | "resourceTemplate",
    pick: (u: UpstreamCatalog) => T[],
    original: (item: T) => string,
    extra: (item: T) => X,
  ): (Entry<T> & X)[] =>
    upstreams.flatMap((u) =>
      pick(u).flatMap((item) => {
        try {
          return [{ item, upstream: u.upstream, original: original(item), ...extra(item) }];
        } catch (error) {
          excluded.push({
            kind,
            upstream: u.upstream,
            name: original(item),
            reason: errorText(error),
          });
          return [];
        }
      }),
    );
  return {
    tools: mergeKeyed(
      "tool",
      renamed("tool", (u) => u.tools),
      (e) => e.item.name,
      collisions,
      trusted,
    ),
    prompts: mergeKeyed(
      "prompt",
      renamed("prompt", (u) => u.prompts),
      (e) => e.item.name,
      collisions,
      trusted,
    ),
    resources: mergeKeyed(
      "resource",
      kept(
        "resource",
        (u) => u.resources,
        (r) => r.uri,
        () => ({}),
      ),
      (e) => e.item.uri,
      collisions,
      trusted,
    ),
    resourceTemplates: mergeKeyed(
      "resourceTemplate",
      kept(
        "resourceTemplate",
        (u) => u.resourceTemplates,
        (t) => t.uriTemplate,
        (t) => ({ template: new UriTemplate(t.uriTemplate) }),
      ),
      (e) => e.item.uriTemplate,
      collisions,
      trusted,
    ),
    collisions,
    excluded,
    cache: mergeCacheHints(upstreams.map((u) => u.cache)),
  };
}
