import { Catalog } from "../catalog/catalog.ts";
import type { ServerDefinition } from "./definition.ts";

/** What serving a request may need to know to find a server's current catalog. */
export type ServeContext = { env: Cloudflare.Env; waitUntil(promise: Promise<unknown>): void };

/** Anything `mcpHandler` can serve: a fixed server, or one whose catalog is loaded (the hub). */
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
