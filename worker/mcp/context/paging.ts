import type { Implementation } from "../../../shared/protocol/primitives.ts";
import type { CacheHint } from "../../../shared/protocol/results.ts";
import type { RawResult } from "../results/ready.ts";

/** The four paginated lists, named by their result member. */
export type ListKey = "tools" | "prompts" | "resources" | "resourceTemplates";

/** One list of a catalog, the same for every era: its items, serialized once, and how it pages. */
export type List = {
  key: ListKey;
  items: readonly object[];
  json: readonly string[];
  pageSize: number;
  cache: CacheHint;
  serverInfo: Implementation;
};

/** How an era writes a page: what comes before the items' member, the items, what follows. */
export type PageFrame = { open: string; items: readonly string[]; close: string };

/**
 * Paging with sealed cursors, which comes with sealing: given an era's framing, serves the page
 * a cursor names of a list for the request's caller.
 */
export type SealedPaging = (
  frame: (list: List) => PageFrame,
) => (list: List, cursor: string | undefined) => Promise<RawResult>;
