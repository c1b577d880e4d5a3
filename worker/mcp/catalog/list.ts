import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";
import type { CacheHint } from "../../../shared/protocol/results.ts";
import type { Seals } from "../context/handles.ts";
import type { List, ListKey, PageFrame } from "../context/paging.ts";
import { RawResult } from "../results/ready.ts";

export function listOf(
  key: ListKey,
  items: readonly object[],
  pageSize: number,
  cache: CacheHint,
  serverInfo: Implementation,
): List {
  return {
    key,
    items,
    json: items.map((item) => JSON.stringify(item)),
    pageSize,
    cache,
    serverInfo,
  };
}

/** Serves the page a cursor names of a list, in an era's framing. */
export type Pager = (list: List, cursor: string | undefined, seals: Seals) => Promise<RawResult>;

export type { List, PageFrame };

export const CURSOR = "cursor";
export const RENEW = "Fetch the list again without a cursor.";

/**
 * Serves pages of any list in one era's framing. A list longer than one page needs sealing (its
 * cursors are sealed, and a definition without sealing is refused at start-up), so paging comes
 * with the seals (`Seals.pages`); without it every list is one page, served whole and built once,
 * and any cursor is one this server never issued (-32602).
 */
export function pagesIn(frame: (list: List) => PageFrame): Pager {
  const whole = new WeakMap<List, RawResult>();
  return async (list, cursor, seals) => {
    if (seals.pages) return seals.pages(frame)(list, cursor);
    if (cursor !== undefined) {
      await seals.openField(CURSOR, cursor, RENEW);
      throw new RpcError(ErrorCode.InvalidParams, `Invalid cursor. ${RENEW}`);
    }
    if (list.json.length > list.pageSize) {
      // A list known only per request outgrew a page: sealing its cursor fails, saying what the
      // server lacks (the server's bug, logged, not the client's).
      await seals.seal(CURSOR, null);
      throw new Error("A list longer than one page needs paging, which comes with sealing.");
    }
    let page = whole.get(list);
    if (!page) {
      const { open, items, close } = frame(list);
      whole.set(
        list,
        (page = new RawResult(`${open}"${list.key}":[${items.join(",")}]${close}`, true)),
      );
    }
    return page;
  };
}
