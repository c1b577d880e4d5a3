import { issuesLine } from "../zod-issues.ts";
import type * as z from "zod/mini";
import { isJsonObject } from "../jsonrpc.ts";
import type { JsonObject } from "../protocol/messages.ts";
import { headerDeclarationsOf } from "../protocol/header-declarations.ts";
import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
} from "../protocol/results.ts";
import { cacheHintProblem, failure } from "./expect.ts";
import type { Probe } from "./probe.ts";

const MAX_PAGES = 50;

/** One kind of list: its method, the capability that advertises it, and its items. */
export type ListKind = {
  kind: string;
  method: string;
  capability: "tools" | "prompts" | "resources";
  field: string;
  schema: z.ZodMiniType;
  /** The member that identifies an item (unique across pages). */
  key: string;
  /** What is wrong with one item beyond the schema. */
  itemProblem?: (item: JsonObject) => string | undefined;
};

/** What is wrong with one listed tool beyond its shape: a non-object input, bad header declarations. */
function toolProblem(tool: JsonObject): string | undefined {
  const input = tool.inputSchema;
  if (!isJsonObject(input) || input.type !== "object") {
    return `tool "${String(tool.name)}": inputSchema must have type "object"`;
  }
  const declarations = headerDeclarationsOf(input);
  return declarations.ok ? undefined : `tool "${String(tool.name)}": ${declarations.reason}`;
}

export const LISTS: ListKind[] = [
  {
    kind: "tools",
    method: "tools/list",
    capability: "tools",
    field: "tools",
    schema: ListToolsResultSchema,
    key: "name",
    itemProblem: toolProblem,
  },
  {
    kind: "prompts",
    method: "prompts/list",
    capability: "prompts",
    field: "prompts",
    schema: ListPromptsResultSchema,
    key: "name",
  },
  {
    kind: "resources",
    method: "resources/list",
    capability: "resources",
    field: "resources",
    schema: ListResourcesResultSchema,
    key: "uri",
  },
  {
    kind: "templates",
    method: "resources/templates/list",
    capability: "resources",
    field: "resourceTemplates",
    schema: ListResourceTemplatesResultSchema,
    key: "uriTemplate",
  },
];

/** What walking one list found: the items' keys in order, and what was wrong on the way. */
export type Walk = {
  keys: string[];
  pages: number;
  /** Shape problems: schema, resultType, duplicates, unusable tools. */
  problems: string[];
  /** Cache hint problems: missing or invalid hints, scopes that differ between pages. */
  hints: string[];
  /** True when the walk stopped at the page cap with a cursor still to follow. */
  unfinished: boolean;
};

/** Walks one list to its end (or the page cap), checking every page. */
export async function walkList(probe: Probe, list: ListKind): Promise<Walk> {
  const walk: Walk = { keys: [], pages: 0, problems: [], hints: [], unfinished: false };
  let cursor: string | undefined;
  let scope: unknown;
  do {
    const exchange = await probe.modern(list.method, cursor === undefined ? {} : { cursor });
    const page = ++walk.pages;
    const result = exchange.result;
    if (exchange.status !== 200 || !result) {
      walk.problems.push(`page ${page}: ${failure(exchange)}`);
      return walk;
    }
    const parsed = list.schema.safeParse(result);
    if (!parsed.success) walk.problems.push(`page ${page}: ${issuesLine(parsed.error, result)}`);
    if (result.resultType !== "complete") {
      walk.problems.push(`page ${page}: resultType is ${JSON.stringify(result.resultType)}`);
    }
    const hint = cacheHintProblem(result);
    if (hint) walk.hints.push(`page ${page}: ${hint}`);
    if (page === 1) scope = result.cacheScope;
    else if (result.cacheScope !== scope) {
      walk.hints.push(
        `page ${page} says cacheScope ${JSON.stringify(result.cacheScope)}, page 1 ${JSON.stringify(scope)}`,
      );
    }
    const items: unknown = result[list.field];
    for (const item of Array.isArray(items) ? items : []) {
      if (!isJsonObject(item)) continue;
      const key = String(item[list.key]);
      if (walk.keys.includes(key)) walk.problems.push(`${key} is listed twice`);
      walk.keys.push(key);
      const problem = list.itemProblem?.(item);
      if (problem) walk.problems.push(problem);
    }
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
  } while (cursor !== undefined && walk.pages < MAX_PAGES);
  walk.unfinished = cursor !== undefined;
  return walk;
}
