import { Catalog } from "../catalog/catalog.ts";
import type { ServerDefinition } from "../define/definition.ts";
import type { DurableCoordination } from "../ports.ts";
import { registerServer } from "./registry.ts";
import type { ServeContext, Served } from "./server.ts";

/** How soon a failed reload is tried again, meanwhile serving the last good catalog. */
const RETRY_AFTER_FAILURE_MS = 1_000;

/**
 * A server whose definition is loaded, and reloaded once `ttlMs` has passed (the hub builds
 * its merged catalog from its upstreams this way). Concurrent requests share one load; a
 * failed reload keeps serving the last good catalog, and is tried again a second later. A
 * catalog past its time is served while its reload runs in the background, so a slow source
 * (an upstream whose lists are never cacheable) delays no request once one catalog exists;
 * after `invalidate()` requests wait for the reload, which reads what changed.
 */
export class DynamicServer implements Served {
  #current: { catalog: Catalog; until: number; generation: number } | undefined;
  #loading: { promise: Promise<Catalog>; generation: number } | undefined;
  /** Bumped by `invalidate()`: a load started before it is not kept as current. */
  #generation = 0;

  constructor(
    readonly name: string,
    private readonly load: (
      context: ServeContext,
    ) => Promise<{ definition: ServerDefinition; ttlMs: number }>,
  ) {}

  // Its definition, and so whether it keeps tasks in the task store, is known only once
  // loaded: it is recorded for the tasks' Durable Objects in any case.
  mounted(durable: ((env: Cloudflare.Env) => DurableCoordination) | undefined): void {
    registerServer(this, durable);
  }

  /**
   * Marks the current catalog stale (e.g. after a list changed), so the next request loads it
   * again; it is still served should that load fail.
   */
  invalidate(): void {
    this.#generation++;
    if (this.#current) this.#current = { ...this.#current, until: 0 };
  }

  async catalogFor(context: ServeContext): Promise<Catalog> {
    const current = this.#current;
    if (current && Date.now() < current.until) return current.catalog;
    const stale = current?.generation === this.#generation ? current : undefined;
    // A load started before the last invalidation may have read what changed since: not shared.
    if (this.#loading?.generation === this.#generation)
      return stale ? stale.catalog : this.#loading.promise;
    const generation = this.#generation;
    const promise = this.load(context)
      .then(({ definition, ttlMs }) => {
        const catalog = new Catalog(definition);
        if (generation === this.#generation)
          this.#current = { catalog, until: Date.now() + ttlMs, generation };
        return catalog;
      })
      .catch((error: unknown) => {
        const last = this.#current;
        if (!last) throw error;
        if (generation === this.#generation)
          this.#current = { ...last, until: Date.now() + RETRY_AFTER_FAILURE_MS, generation };
        return last.catalog;
      })
      .finally(() => {
        if (this.#loading?.promise === promise) this.#loading = undefined;
      });
    this.#loading = { promise, generation };
    if (!stale) return promise;
    context.waitUntil(promise);
    return stale.catalog;
  }
}
