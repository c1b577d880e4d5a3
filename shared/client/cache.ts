import type { CacheScope } from "../protocol/results.ts";

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
