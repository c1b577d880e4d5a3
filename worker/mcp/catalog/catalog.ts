import type { ToolAccess } from "../../auth/admit.ts";
import type {
  ClientCapabilities,
  ServerCapabilities,
} from "../../../shared/protocol/capabilities.ts";
import type { Implementation, Resource } from "../../../shared/protocol/primitives.ts";
import type { UriTemplate } from "../../../shared/uri-template.ts";
import type { CacheHint, ListKey, ServerDefinition } from "../define/definition.ts";
import { METHODS } from "../define/features.ts";
import type { PromptDefinition } from "../define/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../define/resource.ts";
import {
  compileTool,
  isZodSchema,
  pageSizes,
  resourceWire,
  strip,
  templateWire,
  type CompiledTool,
} from "./compile.ts";
import { unsealedPaging } from "../define/sealing.ts";
import { listOf, type List } from "./list.ts";
import { Problems } from "./problems.ts";

export type { CompiledTool };

type CompiledTemplate = { definition: ResourceTemplateDefinition; template: UriTemplate };
type CompiledPrompt = { definition: PromptDefinition };

/** An absolute URI: a scheme, a colon, and the rest. */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

type Lists = {
  tools: List;
  resourceTemplates: List;
  /** Undefined when a template lists resources, which makes the list depend on data. */
  resources: List | undefined;
};

const DEFAULT_CACHE: CacheHint = { ttlMs: 60_000, cacheScope: "public" };

/** Whether a tool's required client capabilities are kinds of input, which it can only ask for. */
const asksFor = (requires: ClientCapabilities | undefined) =>
  requires !== undefined &&
  ("elicitation" in requires || "sampling" in requires || "roots" in requires);

/**
 * Everything about a server that does not depend on the request, computed once per isolate:
 * the compiled tools, resources, templates and prompts, what the server offers, and its lists.
 * Building it checks the definition and throws on what clients would reject.
 */
export class Catalog implements ToolAccess {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly tools = new Map<string, CompiledTool>();
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates: CompiledTemplate[] = [];
  readonly prompts = new Map<string, CompiledPrompt>();
  #lists: Lists | undefined;
  readonly cache: Record<ListKey | "discover" | "read", CacheHint>;
  readonly pageSize: Record<ListKey, number>;
  /** Whether any tool may run as a task. */
  readonly taskTools: boolean;

  /** Whether a tool exists and is not annotated `readOnlyHint: true` (for access rules). */
  readonly mutating: (name: string) => boolean;

  constructor(readonly definition: ServerDefinition) {
    // Built here rather than as a method, so policies can take it unbound.
    this.mutating = (tool) => {
      const compiled = this.tools.get(tool);
      return compiled !== undefined && compiled.wire.annotations?.readOnlyHint !== true;
    };
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
    // Every problem is collected, then reported at once (DefinitionError).
    const problems = new Problems();
    this.pageSize =
      problems.attempt("the server", () => pageSizes(definition.pageSize)) ?? pageSizes(undefined);

    const seenTools = new Set<string>();
    for (const tool of definition.tools ?? []) {
      const named = problems.name("tool", tool.name, seenTools);
      seenTools.add(tool.name);
      if (typeof tool.run !== "function")
        problems.add(`tool "${tool.name}" has no run(args, ctx) function.`);
      if (!definition.input && asksFor(tool.requires))
        problems.add(
          `tool "${tool.name}" requires client capabilities that only asking for input uses: import { inputRounds } from "edgemcp/server" and add \`input: inputRounds\` to the server's definition.`,
        );
      if (!definition.tasks && tool.task)
        problems.add(
          `tool "${tool.name}" may run as a task: import { storedTasks } from "edgemcp/server" and add \`tasks: storedTasks\` to the server's definition.`,
        );
      const compiled = problems.attempt(`tool "${tool.name}"`, () =>
        compileTool(tool, definition.toJSONSchema),
      );
      if (named && compiled) this.tools.set(tool.name, compiled);
    }
    this.taskTools = [...this.tools.values()].some((t) => t.definition.task);
    for (const res of definition.resources ?? []) {
      const label = `resource ${JSON.stringify(res.uri)}`;
      if (typeof res.uri !== "string" || !ABSOLUTE_URI.test(res.uri))
        problems.add(`${label}: a resource URI is absolute, with a scheme (e.g. "notes://all").`);
      else if (this.resources.has(res.uri))
        problems.add(`${label} is defined twice: give each resource its own URI.`);
      if (typeof res.name !== "string" || res.name === "") problems.add(`${label} needs a name.`);
      if (!Object.hasOwn(res, METHODS))
        problems.add(
          `${label}: make it with resource({ ... }), which brings the resources methods.`,
        );
      this.resources.set(res.uri, res);
    }
    const seenTemplates = new Set<string>();
    for (const t of definition.resourceTemplates ?? []) {
      const label = `resource template ${JSON.stringify(t.uriTemplate)}`;
      if (seenTemplates.has(t.uriTemplate))
        problems.add(`${label} is defined twice: give each template its own URI template.`);
      seenTemplates.add(t.uriTemplate);
      if (typeof t.name !== "string" || t.name === "") problems.add(`${label} needs a name.`);
      if (typeof t.compile !== "function" || !Object.hasOwn(t, METHODS)) {
        problems.add(
          `${label}: make it with resourceTemplate({ ... }), which parses the template and brings the resources methods.`,
        );
        continue;
      }
      const template = problems.attempt(label, () => t.compile());
      if (template) this.templates.push({ definition: t, template });
    }
    const seenPrompts = new Set<string>();
    for (const p of definition.prompts ?? []) {
      const named = problems.name("prompt", p.name, seenPrompts);
      seenPrompts.add(p.name);
      if (typeof p.get !== "function")
        problems.add(`prompt "${p.name}" has no get(args, ctx) function.`);
      if (!Object.hasOwn(p, METHODS))
        problems.add(
          `prompt "${p.name}": make it with prompt({ ... }), which brings the prompts methods.`,
        );
      if (p.args !== undefined && (!isZodSchema(p.args) || p.args._zod.def.type !== "object"))
        problems.add(
          `prompt "${p.name}": args must be a zod object of strings, e.g. z.object({ topic: z.string() }).`,
        );
      if (named) this.prompts.set(p.name, { definition: p });
    }
    const counts = {
      tools: this.tools.size,
      prompts: this.prompts.size,
      resources: this.resources.size,
      resourceTemplates: this.templates.length,
    };
    for (const problem of unsealedPaging(definition, counts, this.pageSize)) problems.add(problem);
    problems.throwIfAny(name);

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
  }

  /**
   * The serialized lists, made by the first list request rather than at start-up: a call, the
   * usual first request of an isolate, needs none of them, and serializing a thousand tools is
   * start-up work every new isolate would pay. Lists keep definition order: deterministic, and
   * the author decides what comes first.
   */
  get lists(): Lists {
    return (this.#lists ??= {
      tools: this.listFor(
        "tools",
        [...this.tools.values()].map((t) => t.wire),
      ),
      resourceTemplates: this.listFor(
        "resourceTemplates",
        this.templates.map((t) => templateWire(t.definition)),
      ),
      resources: this.templates.some((t) => t.definition.list)
        ? undefined
        : this.listFor("resources", this.staticResources()),
    });
  }

  /** The tools' names (ToolAccess). */
  names(): Iterable<string> {
    return this.tools.keys();
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
