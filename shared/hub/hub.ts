import type { McpClient } from "../client/index.ts";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../protocol/primitives.ts";
import { abortable } from "../abortable.ts";
import { errorText } from "../error-text.ts";
import { publicReason } from "./reason.ts";

import {
  mergeCacheHints,
  mergeCatalogs,
  type MergedCatalog,
  type UpstreamCatalog,
} from "./catalog.ts";
import { splitPrefixed, type Naming } from "./names.ts";

/**
 * An upstream's state when the catalog was built: how long listing it took, how many tools it
 * gave, or why it is missing (`reason`: safe to show clients; `detail`: for the log only).
 */
export type UpstreamStatus = { upstream: string; latencyMs: number } & (
  { ok: true; tools: number } | { ok: false; reason: string; detail: string }
);

/** The merged catalog at one moment, with each upstream's state. */
export type HubView = MergedCatalog & { status: UpstreamStatus[]; builtAt: number };

/** How long an upstream may take to list its catalog, unless the hub is told otherwise. */
export const DEFAULT_LIST_TIMEOUT_MS = 5_000;

/** Connects (or reuses) a client to an upstream. */
export type ClientFor = (upstream: string, signal: AbortSignal) => Promise<McpClient>;

export type HubOptions = {
  /** Upstream names, in catalog order. */
  upstreams: readonly string[];
  /** Between upstream and member names (default "__"). */
  separator?: string;
  /** How long an upstream may take to list its catalog (default 5 s). */
  timeoutMs?: number;
  /** Told about upstreams left out and entries that collide. */
  warn?(message: string): void;
  /**
   * Upstreams whose entries win a collision with any other's (the servers of the hub's own
   * Worker), so an outside server cannot take their names or URIs away.
   */
  trusted?: readonly string[];
};

/**
 * Aggregates several MCP servers into one catalog: tools and prompts under
 * `<upstream><sep><name>`, resources and templates at their own URIs, collisions left out and
 * reported, and an upstream that fails or is slow dropped from the catalog, not fatal.
 */
export class Hub {
  readonly naming: Naming;
  readonly upstreams: readonly string[];
  readonly #options: HubOptions;

  constructor(options: HubOptions) {
    this.#options = options;
    this.upstreams = options.upstreams;
    this.naming = { separator: options.separator ?? "__" };
    if (this.naming.separator === "") throw new Error("The hub's separator must not be empty.");
    const duplicate = options.upstreams.find((name, i) => options.upstreams.indexOf(name) !== i);
    if (duplicate) throw new Error(`The hub has two upstreams named "${duplicate}".`);
  }

  /** Lists every upstream (in parallel, each within the timeout) and merges what answered. */
  async view(client: ClientFor): Promise<HubView> {
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
    const settled = await Promise.all(
      this.upstreams.map(
        async (upstream): Promise<{ catalog?: UpstreamCatalog; status: UpstreamStatus }> => {
          const started = Date.now();
          try {
            const signal = AbortSignal.timeout(timeoutMs);
            const catalog = await abortable(this.#catalogOf(client, upstream, signal), signal);
            const latencyMs = Date.now() - started;
            return {
              catalog,
              status: { upstream, latencyMs, ok: true, tools: catalog.tools.length },
            };
          } catch (error) {
            const latencyMs = Date.now() - started;
            const reason = publicReason(error);
            return { status: { upstream, latencyMs, ok: false, reason, detail: errorText(error) } };
          }
        },
      ),
    );
    const catalogs = settled.flatMap((s) => (s.catalog ? [s.catalog] : []));
    const merged = mergeCatalogs(catalogs, this.naming, new Set(this.#options.trusted));
    const status = settled.map((s) => s.status);
    const warn = this.#options.warn ?? (() => {});
    for (const s of status)
      if (!s.ok) warn(`Upstream "${s.upstream}" is left out of the hub: ${s.detail}`);
    for (const c of merged.collisions)
      warn(
        `Hub ${c.kind} "${c.key}" is offered by ${c.upstreams.join(" and ")}; ${c.kept ? `only "${c.kept}"'s is listed` : "none of them is listed"}.`,
      );
    for (const e of merged.excluded)
      warn(`Hub leaves out ${e.kind} "${e.name}" of "${e.upstream}": ${e.reason}`);
    return { ...merged, status, builtAt: Date.now() };
  }

  /** Which upstream a prefixed tool or prompt name belongs to, and its name there. */
  route(name: string): { upstream: string; original: string } | undefined {
    return splitPrefixed(name, this.upstreams, this.naming);
  }

  /** The upstream serving a resource URI: a listed resource, else the first template matching it. */
  resourceOwner(view: HubView, uri: string): { upstream: string } | undefined {
    const fixed = view.resources.find((entry) => entry.item.uri === uri);
    if (fixed) return { upstream: fixed.upstream };
    const match = view.resourceTemplates.find(({ template }) => template.match(uri));
    return match && { upstream: match.upstream };
  }

  async #catalogOf(
    connect: ClientFor,
    upstream: string,
    signal: AbortSignal,
  ): Promise<UpstreamCatalog> {
    const client = await connect(upstream, signal);

    const caps = client.server.capabilities;
    const options = { signal };
    const none = { result: undefined };
    const [tools, prompts, resources, templates] = await Promise.all([
      caps.tools ? client.listTools(options) : none,
      caps.prompts ? client.listPrompts(options) : none,
      caps.resources ? client.listResources(options) : none,
      caps.resources ? client.listResourceTemplates(options) : none,
    ]);
    // Each list may carry its own hint: the upstream's is the strictest of them.
    const cache = mergeCacheHints(
      [tools.result, prompts.result, resources.result, templates.result].flatMap((list) =>
        list ? [{ ttlMs: list.ttlMs ?? 0, cacheScope: list.cacheScope ?? "private" }] : [],
      ),
    );
    return {
      upstream,
      tools: tools.result?.tools ?? ([] as Tool[]),
      prompts: prompts.result?.prompts ?? ([] as Prompt[]),
      resources: resources.result?.resources ?? ([] as Resource[]),
      resourceTemplates: templates.result?.resourceTemplates ?? ([] as ResourceTemplate[]),
      cache,
    };
  }
}
