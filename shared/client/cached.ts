import type { CacheScope } from "../protocol/results.ts";
import type { CacheHit, TtlCache } from "./cache.ts";
import type { ClientCore } from "./core.ts";
import type { CacheMode, Reply } from "./options.ts";

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
  core: ClientCore,
  cache: TtlCache<T>,
  request: { method: string; key: string; mode: CacheMode | undefined },
  load: () => Promise<Loaded<T>>,
): Promise<Reply<T>> {
  const mode = request.mode ?? "use";
  const auth = core.conn.authKey();
  if (mode === "use") {
    const hit = cache.get(request.key, auth);
    if (hit) {
      core.conn.onWire?.({ type: "cache", method: request.method, key: request.key });
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
