import * as z from "zod/mini";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import {
  NAME_PATTERN,
  type Implementation,
  type Prompt,
  type PromptArgument,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "../../shared/protocol/primitives.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import type {
  CacheHint,
  ListKey,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerDefinition,
  ToolDefinition,
} from "./define.ts";
import { collectHeaderParams, type HeaderParam } from "./header-params.ts";
import { jsonSchemaOf } from "./json-schema.ts";

import type { UriTemplate } from "../../shared/uri-template.ts";
import { ListPages } from "./pages.ts";

export type CompiledTool = {
  definition: ToolDefinition<z.core.$ZodObject, z.core.$ZodType | undefined>;
  wire: Tool;
  headerParams: HeaderParam[];
  /** Whether legacy clients may see `structuredContent` (their schema requires an object). */
  legacyStructured: boolean;
};

type CompiledTemplate = {
  definition: ResourceTemplateDefinition;
  template: UriTemplate;
  wire: ResourceTemplate;
};
type CompiledPrompt = { definition: PromptDefinition; wire: Prompt };

const DEFAULT_CACHE: CacheHint = { ttlMs: 60_000, cacheScope: "public" };

/** Everything about a server that does not depend on the request, computed once per isolate. */
export class Catalog {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly tools = new Map<string, CompiledTool>();
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates: CompiledTemplate[];
  readonly prompts = new Map<string, CompiledPrompt>();
  readonly pages: {
    tools: ListPages;
    prompts: ListPages;
    resourceTemplates: ListPages;
    /** Undefined when a template lists resources, which makes the list dynamic. */
    resources: ListPages | undefined;
  };
  readonly cache: Record<
    "discover" | "tools" | "prompts" | "resources" | "resourceTemplates" | "read",
    CacheHint
  >;
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

    for (const tool of definition.tools ?? []) this.#addTool(tool);
    this.taskTools = [...this.tools.values()].some((t) => t.definition.task);

    for (const res of definition.resources ?? []) {
      if (this.resources.has(res.uri))
        throw new Error(`Server "${name}" defines resource "${res.uri}" twice.`);
      this.resources.set(res.uri, res);
    }
    this.templates = (definition.resourceTemplates ?? []).map((t) => ({
      definition: t,
      template: t.compile(),
      wire: strip({
        uriTemplate: t.uriTemplate,
        name: t.name,
        title: t.title,
        description: t.description,
        mimeType: t.mimeType,
        annotations: t.annotations,
        icons: t.icons,
        _meta: t._meta,
      }),
    }));
    for (const p of definition.prompts ?? []) {
      if (this.prompts.has(p.name))
        throw new Error(`Server "${name}" defines prompt "${p.name}" twice.`);
      this.prompts.set(p.name, { definition: p, wire: promptWire(p) });
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
    const tools = [...this.tools.values()];
    this.pages = {
      tools: new ListPages(
        "tools",
        tools.map((t) => t.wire),
        this.pageSize.tools,
        this.cache.tools,
        this.serverInfo,
        tools.map(legacyTool),
      ),
      prompts: new ListPages(
        "prompts",
        [...this.prompts.values()].map((p) => p.wire),
        this.pageSize.prompts,
        this.cache.prompts,
        this.serverInfo,
      ),
      resourceTemplates: new ListPages(
        "resourceTemplates",
        this.templates.map((t) => t.wire),
        this.pageSize.resourceTemplates,
        this.cache.resourceTemplates,
        this.serverInfo,
      ),
      resources: this.templates.some((t) => t.definition.list)
        ? undefined
        : new ListPages(
            "resources",
            this.staticResources(),
            this.pageSize.resources,
            this.cache.resources,
            this.serverInfo,
          ),
    };
  }

  /** The fixed resources, in definition order. */
  staticResources(): Resource[] {
    return [...this.resources.values()].map((r) => resourceWire(r));
  }

  #addTool(definition: ToolDefinition<z.core.$ZodObject, z.core.$ZodType | undefined>): void {
    const server = this.definition.name;
    if (!NAME_PATTERN.test(definition.name)) {
      throw new Error(
        `Server "${server}": tool name "${definition.name}" must be 1-128 characters of A-Z a-z 0-9 _ . -`,
      );
    }
    if (this.tools.has(definition.name))
      throw new Error(`Server "${server}" defines tool "${definition.name}" twice.`);
    const inputSchema =
      definition.inputSchema ??
      (definition.input
        ? jsonSchemaOf(definition.input, "input")
        : { type: "object", properties: {} });
    if (inputSchema.type !== "object") {
      throw new Error(
        `Server "${server}": tool "${definition.name}" needs an input schema whose root has type "object".`,
      );
    }
    const outputSchema = definition.output
      ? jsonSchemaOf(definition.output, "output")
      : definition.outputSchema;

    const wire: Tool = strip({
      name: definition.name,
      title: definition.title,
      description: definition.description,
      icons: definition.icons,
      inputSchema,
      outputSchema,
      annotations: definition.annotations,
      _meta: definition._meta,
    });
    this.tools.set(definition.name, {
      definition,
      wire,
      headerParams: collectHeaderParams(definition.name, inputSchema),
      legacyStructured: outputSchema === undefined || outputSchema.type === "object",
    });
  }
}

/** 2025 clients reject a whole tool list if one `outputSchema` is not an object schema. */
function legacyTool(tool: CompiledTool): Tool {
  if (tool.legacyStructured) return tool.wire;
  const { outputSchema: _notAnObject, ...rest } = tool.wire;
  return rest;
}

function resourceWire(
  r: ResourceDefinition | Omit<ResourceDefinition, "read" | "cache">,
): Resource {
  return strip({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    annotations: r.annotations,
    size: r.size,
    icons: r.icons,
    _meta: r._meta,
  });
}
export { resourceWire };

function promptWire(p: PromptDefinition): Prompt {
  const args: PromptArgument[] =
    p.arguments ??
    Object.entries(p.args?._zod.def.shape ?? {}).map(([name, schema]) =>
      strip({
        name,
        description: z.globalRegistry.get(schema)?.description,
        required: !z.safeParse(schema, undefined).success,
      }),
    );

  return strip({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: args.length > 0 ? args : undefined,
    icons: p.icons,
    _meta: p._meta,
  });
}

function pageSizes(server: string, option: ServerDefinition["pageSize"]): Record<ListKey, number> {
  const given =
    typeof option === "number"
      ? { tools: option, prompts: option, resources: option, resourceTemplates: option }
      : (option ?? {});
  const sizes = { tools: 100, prompts: 100, resources: 100, resourceTemplates: 100, ...given };
  for (const [list, size] of Object.entries(sizes)) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`Server "${server}": pageSize for ${list} must be a positive integer.`);
  }
  return sizes;
}

/** Drops undefined members so the wire JSON has no `"x": undefined` noise. */
function strip<T extends JsonObject>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}
