import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { MetaKey } from "../../shared/protocol/meta.ts";
import type { Implementation } from "../../shared/protocol/primitives.ts";
import type { CacheHint, ListKey } from "./define.ts";
import type { Era } from "./context.ts";
import { RawResult } from "./raw.ts";

/**
 * One list cut into pages whose result bodies are serialized up front, for both eras, so
 * serving a page is a lookup. Cursors name the page and a fingerprint of the list, so a cursor
 * from a different version of the list is refused instead of silently skipping items.
 */
export class ListPages {
  readonly #modern: RawResult[] = [];
  readonly #legacy: RawResult[] = [];
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
    const tail = `,"ttlMs":${cache.ttlMs},"cacheScope":${JSON.stringify(cache.cacheScope)},"_meta":${JSON.stringify({ [MetaKey.serverInfo]: serverInfo })}}`;
    const count = Math.max(1, Math.ceil(items.length / pageSize));
    for (let page = 0; page < count; page++) {
      const slice = (all: string[]) => all.slice(page * pageSize, (page + 1) * pageSize).join(",");
      const next =
        page + 1 < count ? `,"nextCursor":${JSON.stringify(this.#cursor(page + 1))}` : "";
      this.#modern.push(
        new RawResult(`{"resultType":"complete","${key}":[${slice(modernItems)}]${next}${tail}`),
      );
      this.#legacy.push(new RawResult(`{"${key}":[${slice(legacyItems)}]${next}}`));
    }
  }

  /** The serialized result for the page a cursor names (the first page without one). */
  page(cursor: string | undefined, era: Era): RawResult {
    const index = cursor === undefined ? 0 : this.#pageOf(cursor);
    const pages = era === "modern" ? this.#modern : this.#legacy;
    const result = pages[index];
    if (!result) throw badCursor();
    return result;
  }

  #cursor(page: number): string {
    return btoa(`${this.key}:${page}:${this.#fingerprint}`).replace(/=+$/, "");
  }

  #pageOf(cursor: string): number {
    let decoded: string;
    try {
      decoded = atob(cursor);
    } catch {
      throw badCursor();
    }
    const [key, page, fingerprint] = decoded.split(":");
    if (key !== this.key || fingerprint !== this.#fingerprint || !/^[1-9]\d*$/.test(page ?? ""))
      throw badCursor();
    return Number(page);
  }
}

function badCursor(): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    "Invalid cursor: it was not issued for this list, or the list has changed since. Fetch the list again without a cursor.",
  );
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
