import { Catalog } from "./catalog.ts";
import type { ServerDefinition } from "./define.ts";

/** A defined MCP server; its catalog is built on first use, once per isolate. */
export class McpServer {
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
}

/** Defines a server from its tools, resources, resource templates and prompts. */
export function defineServer(definition: ServerDefinition): McpServer {
  return new McpServer(definition);
}
