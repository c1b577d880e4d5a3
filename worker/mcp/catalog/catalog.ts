import type { ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import {
  NAME_PATTERN,
  type Implementation,
  type Resource,
} from "../../../shared/protocol/primitives.ts";
import type { UriTemplate } from "../../../shared/uri-template.ts";
import type { CacheHint, ListKey, ServerDefinition } from "../define/definition.ts";
import type { PromptDefinition } from "../define/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../define/resource.ts";
import {
  compileTool,
  pageSizes,
  promptWire,
  resourceWire,
  strip,
  templateWire,
  type CompiledTool,
} from "./compile.ts";
import { listOf, type List } from "./pages.ts";

export type { CompiledTool };

type CompiledTemplate = { definition: ResourceTemplateDefinition; template: UriTemplate };
type CompiledPrompt = { definition: PromptDefinition };

const DEFAULT_CACHE: CacheHint = { ttlMs: 60_000, cacheScope: "public" };

/**
 * Everything about a server that does not depend on the request, computed once per isolate:
 * the compiled tools, resources, templates and prompts, what the server offers, and its lists.
 * Building it checks the definition and throws on what clients would reject.
 */
export class Catalog {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly tools = new Map<string, CompiledTool>();
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates: CompiledTemplate[];
  readonly prompts = new Map<string, CompiledPrompt>();
  readonly lists: {
    tools: List;
    prompts: List;
    resourceTemplates: List;
    /** Undefined when a template lists resources, which makes the list depend on data. */
    resources: List | undefined;
  };
  readonly cache: Record<ListKey | "discover" | "read", CacheHint>;
  readonly pageSize: Record<ListKey, number>;
  /** Whether any tool may run as a task. */
  readonly taskTools: boolean;

  constructor(readonly definition: ServerDefinition) {
    const { name, version, title, description, websiteUrl, icons } = definition;
    this.serverInfo = strip({ name, version, title, description, websiteUrl, icons });
    const base = definition.cache
      ? { ttlMs: definition.cache.ttlMs, cacheScope: definition.cache.cacheScope }
      : DEFAULT_CACHE;
    this.cache = {
      discover: definition.cache?.discover ?? base,
      tools: definition.cache?.tools ?? base,
      prompts: definition.cache?.prompts ?? base,
      resources: definition.cache?.resources ?? base,
      resourceTemplates: definition.cache?.resourceTemplates ?? base,
      read: base,
    };
    this.pageSize = pageSizes(name, definition.pageSize);

    for (const tool of definition.tools ?? []) {
      if (!NAME_PATTERN.test(tool.name)) {
        throw new Error(
          `Server "${name}": tool name "${tool.name}" must be 1-128 characters of A-Z a-z 0-9 _ . -`,
        );
      }
      if (this.tools.has(tool.name))
        throw new Error(`Server "${name}" defines tool "${tool.name}" twice.`);
      this.tools.set(tool.name, compileTool(name, tool));
    }
    this.taskTools = [...this.tools.values()].some((t) => t.definition.task);
    for (const res of definition.resources ?? []) {
      if (this.resources.has(res.uri))
        throw new Error(`Server "${name}" defines resource "${res.uri}" twice.`);
      this.resources.set(res.uri, res);
    }
    this.templates = (definition.resourceTemplates ?? []).map((t) => ({
      definition: t,
      template: t.compile(),
    }));
    for (const p of definition.prompts ?? []) {
      if (this.prompts.has(p.name))
        throw new Error(`Server "${name}" defines prompt "${p.name}" twice.`);
      this.prompts.set(p.name, { definition: p });
    }

    const hasCompletion =
      this.templates.some((t) => t.definition.complete) ||
      [...this.prompts.values()].some((p) => p.definition.complete);
    this.capabilities = strip({
      tools: this.tools.size > 0 ? {} : undefined,
      resources: this.resources.size > 0 || this.templates.length > 0 ? {} : undefined,
      prompts: this.prompts.size > 0 ? {} : undefined,
      completions: hasCompletion ? {} : undefined,
      logging: definition.logging ? {} : undefined,
    });

    // Lists keep definition order: deterministic, and the author decides what comes first.
    this.lists = {
      tools: this.listFor(
        "tools",
        [...this.tools.values()].map((t) => t.wire),
      ),
      prompts: this.listFor(
        "prompts",
        [...this.prompts.values()].map((p) => promptWire(p.definition)),
      ),
      resourceTemplates: this.listFor(
        "resourceTemplates",
        this.templates.map((t) => templateWire(t.definition)),
      ),
      resources: this.templates.some((t) => t.definition.list)
        ? undefined
        : this.listFor("resources", this.staticResources()),
    };
  }

  /** The fixed resources, in definition order. */
  staticResources(): Resource[] {
    return [...this.resources.values()].map((r) => resourceWire(r));
  }

  /** One list with this server's page size and cache hint (resources may be listed per request). */
  listFor(key: ListKey, items: readonly object[]): List {
    return listOf(key, items, this.pageSize[key], this.cache[key], this.serverInfo);
  }
}
