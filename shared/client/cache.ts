import type { ListenNotification } from "../protocol/notifications.ts";
import type {
  CacheScope,
  DiscoverResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
} from "../protocol/results.ts";
import type { Connection } from "./connection.ts";
import type { CacheMode, Reply } from "./options.ts";

type Entry<T> = { key: string; value: T; expiresAt: number; scope: CacheScope };

/** A fresh cached value, until when it stays fresh, and its scope. */
export type CacheHit<T> = { value: T; expiresAt: number; scope: CacheScope };

/**
 * Results kept while their `ttlMs` lasts. Public entries serve every caller of the client;
 * private ones only the same authorization (the `Authorization` header they were fetched with).
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  private static slot(key: string, scope: CacheScope, auth: string): string {
    return scope === "public" ? `public\n${key}` : `private\n${auth}\n${key}`;
  }

  /** A fresh entry for `key` visible to `auth`; a private one wins over a public one. */
  get(key: string, auth: string): CacheHit<T> | undefined {
    for (const scope of ["private", "public"] as const) {
      const slot = TtlCache.slot(key, scope, auth);
      const entry = this.entries.get(slot);
      if (!entry) continue;
      if (entry.expiresAt > Date.now()) return entry;
      this.entries.delete(slot);
    }
    return undefined;
  }

  /** Stores `value` for `ttlMs` (nothing when it is 0 or less) and returns the stored hit. */
  set(
    key: string,
    auth: string,
    value: T,
    ttlMs: number,
    scope: CacheScope,
  ): CacheHit<T> | undefined {
    if (!(ttlMs > 0)) return undefined;
    const entry = { key, value, expiresAt: Date.now() + ttlMs, scope };
    this.entries.set(TtlCache.slot(key, scope, auth), entry);
    return entry;
  }

  /** Drops every entry whose key matches, whatever its scope. */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const [slot, entry] of this.entries) if (matches(entry.key)) this.entries.delete(slot);
  }

  clear(): void {
    this.entries.clear();
  }
}

// An update's URI may name a sub-resource of a cached read, or the other way round: `inner`
// goes on past `outer` after a separator (`a/b` in `a`, and `dir/a` in `dir/` alike).
function within(inner: string, outer: string): boolean {
  const separators = ["/", "?", "#"];
  return (
    inner.length > outer.length &&
    inner.startsWith(outer) &&
    (separators.includes(outer.at(-1) ?? "") || separators.includes(inner.charAt(outer.length)))
  );
}

/** The client's cached results, one cache per cacheable method. */
export class ClientCaches {
  readonly discover = new TtlCache<DiscoverResult>();
  readonly tools = new TtlCache<ListToolsResult>();
  readonly prompts = new TtlCache<ListPromptsResult>();
  readonly resources = new TtlCache<ListResourcesResult>();
  readonly templates = new TtlCache<ListResourceTemplatesResult>();
  readonly reads = new TtlCache<ReadResourceResult>();

  /** Drops what a listen notification says has changed. */
  invalidate(notification: ListenNotification): void {
    switch (notification.method) {
      case "notifications/tools/list_changed":
        return this.tools.clear();
      case "notifications/prompts/list_changed":
        return this.prompts.clear();
      case "notifications/resources/list_changed":
        this.resources.clear();
        return this.templates.clear();
      case "notifications/resources/updated": {
        const { uri } = notification.params;
        return this.reads.deleteWhere((key) => key === uri || within(key, uri) || within(uri, key));
      }
      case "notifications/tasks":
        return;
    }
  }

  clear(): void {
    for (const cache of [
      this.discover,
      this.tools,
      this.prompts,
      this.resources,
      this.templates,
      this.reads,
    ]) {
      cache.clear();
    }
  }
}

type Hinted = { ttlMs?: number; cacheScope?: CacheScope };

/**
 * Stores a result as its hints say: for `ttlMs` (absent: not at all) under its `cacheScope`
 * (absent counts as private).
 */
export function storeHinted<T extends Hinted>(
  cache: TtlCache<T>,
  key: string,
  auth: string,
  value: T,
): CacheHit<T> | undefined {
  return cache.set(key, auth, value, value.ttlMs ?? 0, value.cacheScope ?? "private");
}

/** A loaded result, and whether it may be stored (results of input rounds may not). */
export type Loaded<T> = { value: T; storable: boolean };

/**
 * Serves a result from the cache while it is fresh, else loads it and stores it as its hints
 * say (`storeHinted`); the reply says which happened.
 */
export async function cachedFetch<T extends Hinted>(
  conn: Connection,
  cache: TtlCache<T>,
  request: { method: string; key: string; mode: CacheMode | undefined },
  load: () => Promise<Loaded<T>>,
): Promise<Reply<T>> {
  const mode = request.mode ?? "use";
  const auth = conn.authKey();
  if (mode === "use") {
    const hit = cache.get(request.key, auth);
    if (hit) {
      conn.onWire?.({ type: "cache", method: request.method, key: request.key });
      return {
        result: hit.value,
        source: "cache",
        freshUntil: hit.expiresAt,
        cacheScope: hit.scope,
      };
    }
  }
  const { value, storable } = await load();
  const stored =
    mode !== "bypass" && storable ? storeHinted(cache, request.key, auth, value) : undefined;
  return {
    result: value,
    source: "network",
    ...(stored ? { freshUntil: stored.expiresAt, cacheScope: stored.scope } : {}),
  };
}
