import type { ToolAccess } from "../../auth/admit.ts";
import type {
  ClientCapabilities,
  ServerCapabilities,
} from "../../../shared/protocol/capabilities.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";
import type { UriTemplate } from "../../../shared/uri-template.ts";
import type { CacheHint, ListKey, ServerDefinition } from "../define/definition.ts";
import { ENTRIES, METHODS } from "../define/features.ts";
import type { PromptDefinition } from "../define/prompt.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../define/resource.ts";
import { compileTool, pageSizes, strip, type CompiledTool } from "./compile.ts";
import { unsealedPaging } from "../define/sealing.ts";
import { listOf, type List } from "./list.ts";
import { Problems } from "./problems.ts";

export type { CompiledTool };

/** What checks a definition's resources, templates and prompts (entries.ts), and what they offer. */
type EnterEntries = (catalog: Catalog, problems: Problems) => ServerCapabilities;

type CompiledTemplate = { definition: ResourceTemplateDefinition; template: UriTemplate };
type CompiledPrompt = { definition: PromptDefinition };

/** The lists every server has (the others come with their methods). */
type Lists = { tools: List };

const DEFAULT_CACHE: CacheHint = { ttlMs: 60_000, cacheScope: "public" };

/** Whether a tool's required client capabilities are kinds of input, which it can only ask for. */
const asksFor = (requires: ClientCapabilities) =>
  "elicitation" in requires || "sampling" in requires || "roots" in requires;

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
    const given = definition.cache;
    const base = given ? { ttlMs: given.ttlMs, cacheScope: given.cacheScope } : DEFAULT_CACHE;
    const cache: Partial<Record<ListKey | "discover" | "read", CacheHint>> = { read: base };
    for (const key of ["discover", "tools", "prompts", "resources", "resourceTemplates"] as const)
      cache[key] = given?.[key] ?? base;
    this.cache = cache as Catalog["cache"];
    // Every problem is collected, then reported at once (DefinitionError).
    const problems = new Problems();
    this.pageSize =
      problems.attempt("the server", () => pageSizes(definition.pageSize)) ?? pageSizes(undefined);

    const seenTools = new Set<string>();
    let taskTools = false;
    for (const tool of definition.tools ?? []) {
      const named = problems.name("tool", tool.name, seenTools);
      seenTools.add(tool.name);
      if (typeof tool.run !== "function")
        problems.add(`tool "${tool.name}" has no run(args, ctx) function.`);
      if (tool.requires && !definition.input && asksFor(tool.requires))
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
      if (named && compiled && tool.task) taskTools = true;
    }
    this.taskTools = taskTools;
    const { resources, resourceTemplates, prompts } = definition;
    const offered =
      resources?.length || resourceTemplates?.length || prompts?.length
        ? enterEntries(this, problems)
        : undefined;
    const counts = { tools: this.tools.size };
    for (const problem of unsealedPaging(definition, counts, this.pageSize)) problems.add(problem);
    problems.throwIfAny(name);
    this.capabilities = strip({
      tools: this.tools.size > 0 ? {} : undefined,
      ...offered,
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
    });
  }

  /** The tools' names (ToolAccess). */
  names(): Iterable<string> {
    return this.tools.keys();
  }

  /** One list with this server's page size and cache hint (resources may be listed per request). */
  listFor(key: ListKey, items: readonly object[]): List {
    return listOf(key, items, this.pageSize[key], this.cache[key], this.serverInfo);
  }
}

/**
 * Checks a definition's resources, templates and prompts by what their builders bring (one not
 * made by its builder brings neither its methods nor those checks); what they offer.
 */
function enterEntries(catalog: Catalog, problems: Problems): ServerCapabilities | undefined {
  const { resources = [], resourceTemplates = [], prompts = [] } = catalog.definition;
  const unbuilt = (label: string, builder: string, methods = "resources") =>
    problems.add(
      `${label}: make it with ${builder}({ ... }), which brings the ${methods} methods.`,
    );
  for (const r of resources)
    if (!Object.hasOwn(r, METHODS)) unbuilt(`resource ${JSON.stringify(r.uri)}`, "resource");
  for (const t of resourceTemplates)
    if (!Object.hasOwn(t, METHODS))
      unbuilt(`resource template ${JSON.stringify(t.uriTemplate)}`, "resourceTemplate");
  for (const p of prompts)
    if (!Object.hasOwn(p, METHODS)) unbuilt(`prompt "${p.name}"`, "prompt", "prompts");
  const enter = [...resources, ...resourceTemplates, ...prompts].find((entry) =>
    Object.hasOwn(entry, ENTRIES),
  )?.[ENTRIES] as EnterEntries | undefined;
  return enter?.(catalog, problems);
}
