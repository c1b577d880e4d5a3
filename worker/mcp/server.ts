import { Catalog } from "./catalog.ts";
import type { ServerDefinition } from "./define.ts";

/** What serving a request may need to know to find a server's current catalog. */
export type ServeContext = { env: Cloudflare.Env; waitUntil(promise: Promise<unknown>): void };

/** Anything `mcpApp` can serve: a fixed server, or one whose catalog is loaded (the hub). */
export interface Served {
  readonly name: string;
  catalogFor(context: ServeContext): Promise<Catalog>;
}

/** A defined MCP server; its catalog is built on first use, once per isolate. */
export class McpServer implements Served {
  #catalog: Catalog | undefined;

  constructor(readonly definition: ServerDefinition) {}

  get name(): string {
    return this.definition.name;
  }

  /** Precomputed schemas, sorted lists and serialized pages (throws if the definition is invalid). */
  get catalog(): Catalog {
    this.#catalog ??= new Catalog(this.definition);
    return this.#catalog;
  }

  catalogFor(): Promise<Catalog> {
    return Promise.resolve(this.catalog);
  }
}

/** Defines a server from its tools, resources, resource templates and prompts. */
export function defineServer(definition: ServerDefinition): McpServer {
  return new McpServer(definition);
}

/**
 * A server whose definition is loaded, and reloaded once `ttlMs` has passed (the hub builds
 * its merged catalog from its upstreams this way). Concurrent requests share one load; a
 * failed reload keeps serving the last good catalog.
 */
export class DynamicServer implements Served {
  #current: { catalog: Catalog; until: number } | undefined;
  #loading: Promise<Catalog> | undefined;

  constructor(
    readonly name: string,
    private readonly load: (
      context: ServeContext,
    ) => Promise<{ definition: ServerDefinition; ttlMs: number }>,
  ) {}

  /** Forgets the current catalog, so the next request loads it again (e.g. after a list changed). */
  invalidate(): void {
    this.#current = undefined;
  }

  async catalogFor(context: ServeContext): Promise<Catalog> {
    const current = this.#current;
    if (current && Date.now() < current.until) return current.catalog;
    this.#loading ??= this.load(context)
      .then(({ definition, ttlMs }) => {
        const catalog = new Catalog(definition);
        this.#current = { catalog, until: Date.now() + ttlMs };
        return catalog;
      })
      .catch((error: unknown) => {
        if (current) return current.catalog;
        throw error;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }
}
