import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";
import type { Implementation } from "../../shared/protocol/primitives.ts";
import type { CacheHint, ListKey } from "./define.ts";
import type { Era } from "../../shared/protocol/versions.ts";
import type { Cursors } from "./cursors.ts";
import { RawResult } from "./raw.ts";

/** A page's result around its `nextCursor`, or (the last page) the whole result, built once. */
type Page = { head: string; tail: string; last: RawResult | undefined };

/**
 * One list cut into pages whose result bodies are serialized up front, for both eras; serving a
 * page is a lookup plus, when more pages follow, one sealed cursor. A cursor names its page and
 * a fingerprint of the list, so one from a different version of the list is refused instead of
 * silently skipping items.
 */
export class ListPages {
  readonly #modern: Page[] = [];
  readonly #legacy: Page[] = [];
  readonly #fingerprint: string;

  constructor(
    readonly key: ListKey,
    items: readonly object[],
    pageSize: number,
    cache: CacheHint,
    serverInfo: Implementation,
    /** The items as legacy clients must see them, when that differs. */
    legacy?: readonly object[],
  ) {
    const modernItems = items.map((item) => JSON.stringify(item));
    const legacyItems = legacy ? legacy.map((item) => JSON.stringify(item)) : modernItems;
    this.#fingerprint = fnv1a(`${key}\n${modernItems.join("\n")}`);
    const modernTail = `,"ttlMs":${cache.ttlMs},"cacheScope":${JSON.stringify(cache.cacheScope)},"_meta":${JSON.stringify({ [MetaKey.serverInfo]: serverInfo })}}`;
    const count = Math.max(1, Math.ceil(items.length / pageSize));
    for (let page = 0; page < count; page++) {
      const slice = (all: string[]) => all.slice(page * pageSize, (page + 1) * pageSize).join(",");
      const hasNext = page + 1 < count;
      const cut = (head: string, tail: string): Page => ({
        head,
        tail,
        last: hasNext ? undefined : new RawResult(head + tail),
      });
      this.#modern.push(
        cut(`{"resultType":"complete","${key}":[${slice(modernItems)}]`, modernTail),
      );
      this.#legacy.push(cut(`{"${key}":[${slice(legacyItems)}]`, "}"));
    }
  }

  /** The serialized result for the page a cursor names (the first page without one). */
  async page(cursor: string | undefined, era: Era, cursors: Cursors): Promise<RawResult> {
    let index = 0;
    if (cursor !== undefined) {
      const state = await cursors.open(cursor);
      if (state.l !== this.key || state.f !== this.#fingerprint) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          "Invalid cursor: it was issued for another list, or the list has changed since. Fetch the list again without a cursor.",
        );
      }
      index = state.i;
    }
    const page = (era === "modern" ? this.#modern : this.#legacy)[index];
    if (!page)
      throw new RpcError(
        ErrorCode.InvalidParams,
        "Invalid cursor: it points past the end of the list. Fetch the list again without a cursor.",
      );
    if (page.last) return page.last;
    const next = await cursors.seal({ l: this.key, i: index + 1, f: this.#fingerprint });
    return new RawResult(`${page.head},"nextCursor":${JSON.stringify(next)}${page.tail}`);
  }
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
