import { Catalog } from "../catalog/catalog.ts";
import type { ServerDefinition } from "../define/definition.ts";
import type { DurableCoordination } from "../ports.ts";

/** What serving a request may need to know to find a server's current catalog. */
export type ServeContext = { env: Cloudflare.Env; waitUntil(promise: Promise<unknown>): void };

/** Anything `mcpHandler` can serve: a fixed server, or one whose catalog is loaded (the hub). */
export interface Served {
  readonly name: string;
  catalogFor(context: ServeContext): Promise<Catalog>;
  /** Called once by `mcpHandler` when it mounts the server, with its `durable` option. */
  mounted?(durable: ((env: Cloudflare.Env) => DurableCoordination) | undefined): void;
}

/**
 * A defined MCP server. Its catalog (schemas, lists, pages) is built, and the definition
 * checked, when the server is defined: once per isolate, when the Worker's module loads, so
 * `wrangler dev` and a deploy's startup show a DefinitionError listing every problem.
 */
export class McpServer implements Served {
  /** Precomputed schemas, sorted lists and serialized pages. */
  readonly catalog: Catalog;
  readonly name: string;

  constructor(readonly definition: ServerDefinition) {
    // Plain fields rather than getters over a private one: each getter is one more function
    // V8 compiles before the first answer of every new isolate.
    this.catalog = new Catalog(definition);
    this.name = definition.name;
  }

  catalogFor(): Promise<Catalog> {
    return Promise.resolve(this.catalog);
  }

  // Its features learn of it (stored tasks record it for their Durable Objects).
  mounted(durable: ((env: Cloudflare.Env) => DurableCoordination) | undefined): void {
    this.definition.tasks?.mounted?.(this, durable);
  }
}

/**
 * Defines a server from its tools, resources, resource templates and prompts. Throws a
 * DefinitionError listing every problem clients would reject or the runtime cannot serve:
 * invalid or duplicate names and URIs, an input that is not an object schema, a broken
 * x-mcp-header, a URI template that does not parse, a bad page size.
 */
export function defineServer(definition: ServerDefinition): McpServer {
  return new McpServer(definition);
}
