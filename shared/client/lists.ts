import type * as z from "zod/mini";
import { ErrorCode } from "../protocol/errors.ts";
import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  type CacheScope,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
} from "../protocol/results.ts";
import { cachedFetch, type ClientCaches, type TtlCache } from "./cache.ts";
import type { ClientCore } from "./core.ts";
import { hasRpcCode, McpError } from "./errors.ts";
import type { ListOptions, Reply } from "./options.ts";
import { parseComplete } from "./parse.ts";

type Page = { nextCursor?: string; ttlMs?: number; cacheScope?: CacheScope };

/** How one list method is fetched, cached and its pages joined. */
type ListSpec<T extends Page> = {
  method: string;
  schema: z.core.$ZodType<T>;
  cache: (caches: ClientCaches) => TtlCache<T>;
  /** The first page with the items of every page and no cursor. */
  join: (first: T, pages: readonly T[]) => T;
};

/** `tools/list`. */
export const TOOLS: ListSpec<ListToolsResult> = {
  method: "tools/list",
  schema: ListToolsResultSchema,
  cache: (caches) => caches.tools,
  join: ({ nextCursor: _, ...first }, pages) => ({
    ...first,
    tools: pages.flatMap((p) => p.tools),
  }),
};

/** `prompts/list`. */
export const PROMPTS: ListSpec<ListPromptsResult> = {
  method: "prompts/list",
  schema: ListPromptsResultSchema,
  cache: (caches) => caches.prompts,
  join: ({ nextCursor: _, ...first }, pages) => ({
    ...first,
    prompts: pages.flatMap((p) => p.prompts),
  }),
};

/** `resources/list`. */
export const RESOURCES: ListSpec<ListResourcesResult> = {
  method: "resources/list",
  schema: ListResourcesResultSchema,
  cache: (caches) => caches.resources,
  join: ({ nextCursor: _, ...first }, pages) => ({
    ...first,
    resources: pages.flatMap((p) => p.resources),
  }),
};

/** `resources/templates/list`. */
export const TEMPLATES: ListSpec<ListResourceTemplatesResult> = {
  method: "resources/templates/list",
  schema: ListResourceTemplatesResultSchema,
  cache: (caches) => caches.templates,
  join: ({ nextCursor: _, ...first }, pages) => ({
    ...first,
    resourceTemplates: pages.flatMap((p) => p.resourceTemplates),
  }),
};

// "" is a valid cursor, distinct from asking for the first page.
const pageKey = (cursor: string | undefined) => (cursor === undefined ? "first" : `at:${cursor}`);

function fetchPage<T extends Page>(
  core: ClientCore,
  spec: ListSpec<T>,
  cursor: string | undefined,
  options: ListOptions,
): Promise<Reply<T>> {
  const request = { method: spec.method, key: pageKey(cursor), mode: options.cache };
  return cachedFetch(core.conn, spec.cache(core.caches), request, async () => {
    const raw = await core.send(spec.method, cursor === undefined ? {} : { cursor }, options);
    return { value: parseComplete(spec.schema, raw, core.context(spec.method)), storable: true };
  });
}

/**
 * Fetches every page. A cursor from a cached page that the server now refuses drops the list's
 * cached pages, and the walk starts over once from the network.
 */
async function walk<T extends Page>(
  core: ClientCore,
  spec: ListSpec<T>,
  options: ListOptions,
  mayRestart = true,
): Promise<Reply<T>> {
  const maxPages = options.maxPages ?? core.settings.maxPages;
  const pages: Reply<T>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    if (pages.length >= maxPages) {
      throw new McpError(`${spec.method} has more than ${maxPages} pages.`, {
        kind: "client",
        data: { maxPages },
        ...core.context(spec.method),
      });
    }
    let page: Reply<T>;
    try {
      page = await fetchPage(core, spec, cursor, options);
    } catch (error) {
      const stale = pages.some((earlier) => earlier.source === "cache");
      if (!mayRestart || !stale || !hasRpcCode(error, ErrorCode.InvalidParams)) throw error;
      spec.cache(core.caches).clear();
      return walk(core, spec, { ...options, cache: "refresh" }, false);
    }
    pages.push(page);
    cursor = page.result.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) {
      throw new McpError(`${spec.method} returned the cursor "${cursor}" twice.`, {
        kind: "protocol",
        ...core.context(spec.method),
      });
    }
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  const [first] = pages;
  if (!first) throw new McpError("A list walk fetched no page.", { kind: "client" });
  const fresh = pages.map((page) => page.freshUntil);
  // The joined list is as cached as its least cached page: fresh until the first page expires,
  // private when any page is.
  const stored = fresh.every((until) => until !== undefined);
  const scope = pages.some((page) => page.cacheScope === "private") ? "private" : "public";
  return {
    result: spec.join(
      first.result,
      pages.map((page) => page.result),
    ),
    source: pages.every((page) => page.source === "cache") ? "cache" : "network",
    ...(stored ? { freshUntil: Math.min(...fresh), cacheScope: scope } : {}),
  };
}

/** One page (when `cursor` or `onePage` is given) or every page joined. */
export function list<T extends Page>(
  core: ClientCore,
  spec: ListSpec<T>,
  options: ListOptions,
): Promise<Reply<T>> {
  return options.cursor !== undefined || options.onePage
    ? fetchPage(core, spec, options.cursor, options)
    : walk(core, spec, options);
}

/**
 * Lists tools; where the era mirrors arguments in headers (2026), keeps each tool's header
 * declarations and drops the tools whose declarations are invalid.
 */
export async function listTools(
  core: ClientCore,
  options: ListOptions,
): Promise<Reply<ListToolsResult>> {
  const listed = await list(core, TOOLS, options);
  core.tools.noteSupport(listed.result.tools);
  if (options.cursor === undefined && !options.onePage) core.tools.supportComplete = true;
  return core.era.listedTools(listed, (reply) => {
    // Warn once per fetch, not again for every cached copy.
    const warn = reply.source === "network" ? core.settings.warn : () => {};
    const tools = core.tools.record(reply.result.tools, warn);
    if (options.cursor === undefined && !options.onePage) core.tools.complete = true;
    return { ...reply, result: { ...reply.result, tools } };
  });
}
