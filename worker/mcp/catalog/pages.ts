import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { Seals } from "../context/handles.ts";
import { RawResult } from "../results/ready.ts";
import { CURSOR, RENEW, type List, type PageFrame, type Pager } from "./list.ts";

/** An hour (a literal, so unused it links nothing). */
const CURSOR_TTL_MS = 3_600_000;

/** Where a cursor points: a list, a page of it, and the list's fingerprint when it was issued. */
type CursorState = { l: string; i: number; f: string };

/** A cursor's state as sealed, checked by hand (it is authenticated; this is defence in depth). */
function isCursorState(value: unknown): value is CursorState {
  if (typeof value !== "object" || value === null) return false;
  const { l, i, f } = value as Partial<CursorState>;
  return (
    typeof l === "string" &&
    typeof f === "string" &&
    typeof i === "number" &&
    Number.isSafeInteger(i) &&
    i > 0
  );
}

/** A page's result around its `nextCursor`, or (the last page) the whole result, built once. */
type Page = { head: string; tail: string; last: RawResult | undefined };

/**
 * One list cut into pages whose result bodies are serialized up front; serving a page is a
 * lookup plus, when more pages follow, one cursor sealed for the caller (an hour; a server
 * without sealing has lists of one page, see `pagesIn`). A cursor
 * names its page and the list's fingerprint, so one from a different version of the list is
 * refused instead of silently skipping items.
 */
class ListPages {
  readonly #pages: Page[] = [];
  /** Names this version of the list, so a cursor from another version is refused. */
  readonly #fingerprint: string;

  constructor(
    private readonly list: List,
    frame: PageFrame,
  ) {
    const { key, pageSize } = list;
    this.#fingerprint = fnv1a(`${key}\n${list.json.join("\n")}`);
    const count = Math.max(1, Math.ceil(frame.items.length / pageSize));
    for (let page = 0; page < count; page++) {
      const items = frame.items.slice(page * pageSize, (page + 1) * pageSize).join(",");
      const head = `${frame.open}"${key}":[${items}]`;
      const last = page + 1 < count ? undefined : new RawResult(head + frame.close, true);
      this.#pages.push({ head, tail: frame.close, last });
    }
  }

  /** The serialized result for the page a cursor names (the first page without one). */
  async page(cursor: string | undefined, seals: Seals): Promise<RawResult> {
    const { key } = this.list;
    const fingerprint = this.#fingerprint;
    let index = 0;
    if (cursor !== undefined) {
      const state = await seals.openField(CURSOR, cursor, RENEW);
      if (!isCursorState(state))
        throw new RpcError(ErrorCode.InvalidParams, `Invalid cursor. ${RENEW}`);
      if (state.l !== key || state.f !== fingerprint) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid cursor: it was issued for another list, or the list has changed since. ${RENEW}`,
        );
      }
      index = state.i;
    }
    const page = this.#pages[index];
    if (!page)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid cursor: it points past the end of the list. ${RENEW}`,
      );
    if (page.last) return page.last;
    const next = await seals.seal(
      CURSOR,
      { l: key, i: index + 1, f: fingerprint },
      { ttlMs: CURSOR_TTL_MS },
    );
    return new RawResult(`${page.head},"nextCursor":${JSON.stringify(next)}${page.tail}`);
  }
}

const pagers = new WeakMap<(list: List) => PageFrame, Pager>();

/**
 * Paging with sealed cursors, which comes with sealing (`Seals.pages`): serves pages of any list
 * in one era's framing, each list's pages built on first use.
 */
export function sealedPages(frame: (list: List) => PageFrame): Pager {
  let pager = pagers.get(frame);
  if (!pager) {
    const built = new WeakMap<List, ListPages>();
    pager = (list, cursor, seals) => {
      let pages = built.get(list);
      if (!pages) built.set(list, (pages = new ListPages(list, frame(list))));
      return pages.page(cursor, seals);
    };
    pagers.set(frame, pager);
  }
  return pager;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
