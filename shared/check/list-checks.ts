import { isJsonObject } from "../jsonrpc.ts";
import { ErrorCode } from "../protocol/errors.ts";
import { NAME_PATTERN } from "../protocol/primitives.ts";
import type { CheckContext } from "./context.ts";
import { firstProblems, refusal } from "./expect.ts";
import { LISTS, walkList, type ListKind } from "./list-walk.ts";

/** Records what walking a list found. */
function recordWalk(
  ctx: CheckContext,
  list: ListKind,
  keys: string[],
  walk: Awaited<ReturnType<typeof walkList>>,
) {
  const count = `${keys.length} ${list.kind}, ${walk.pages} page${walk.pages === 1 ? "" : "s"}`;
  const title = `${list.method} returns valid pages to the end`;
  ctx.record(
    "lists",
    `lists.${list.kind}`,
    title,
    walk.problems.length ? "fail" : "pass",
    firstProblems(walk.problems) ?? count,
  );
  ctx.expect(
    "lists",
    `lists.${list.kind}-cache-hints`,
    `${list.method} pages carry ttlMs and one cacheScope`,
    firstProblems(walk.hints),
  );
  if (walk.unfinished) {
    ctx.record(
      "lists",
      `lists.${list.kind}-end`,
      `${list.method} ends within ${walk.pages} pages`,
      "warn",
      "stopped walking",
    );
  }
  if (list.kind === "tools") {
    const odd = keys.filter((name) => !NAME_PATTERN.test(name)).map((name) => JSON.stringify(name));
    ctx.expect(
      "lists",
      "lists.tool-names",
      "Tool names are 1-128 of A-Z a-z 0-9 _ . -",
      firstProblems(odd),
      "warn",
    );
  }
}

/** Every advertised list, walked; then a bad cursor and the order of a repeated list. */
export async function listChecks(ctx: CheckContext): Promise<void> {
  let sample: { list: ListKind; keys: string[] } | undefined;
  for (const list of LISTS) {
    const title = `${list.method} returns valid pages to the end`;
    if (!ctx.applies("lists", `lists.${list.kind}`, title, list.capability)) continue;
    const walk = await walkList(ctx.probe, list);
    recordWalk(ctx, list, walk.keys, walk);
    if (walk.problems.length) continue;
    sample ??= { list, keys: walk.keys };
    if (list.kind === "resources") ctx.found.firstResource = walk.keys[0];
  }
  if (!sample) return;
  const { list, keys } = sample;
  const bad = await ctx.probe.modern(list.method, { cursor: "edgemcp-check-invalid-cursor" });
  ctx.expect(
    "lists",
    "lists.cursor-invalid",
    "An invalid cursor is refused with -32602",
    refusal(bad, ErrorCode.InvalidParams),
    "warn",
  );
  const again = await ctx.probe.modern(list.method);
  const items = again.result?.[list.field];
  const order = Array.isArray(items)
    ? items.map((item) => (isJsonObject(item) ? String(item[list.key]) : ""))
    : [];
  const same = keys.slice(0, order.length).join("\n") === order.join("\n");
  ctx.expect(
    "lists",
    "lists.deterministic",
    `${list.method} lists in the same order every time`,
    same ? undefined : "the first page came back in another order",
    "warn",
  );
}
