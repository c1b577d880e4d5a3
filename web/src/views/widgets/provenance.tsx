import type { Reply } from "../../../../shared/client/index.ts";
import { seconds } from "../../lib/seconds.ts";

/**
 * Where a result came from: the network or the client's cache, how long after `now` (ms since
 * the epoch) it stays fresh, its scope.
 */
export function Provenance({ reply, now }: { reply: Reply<unknown>; now: number }) {
  const left = reply.freshUntil === undefined ? undefined : reply.freshUntil - now;
  return (
    <span class={`provenance ${reply.source}`}>
      <span class="badge">{reply.source === "cache" ? "from cache" : "from network"}</span>
      {left === undefined ? (
        <span class="muted small"> not cached</span>
      ) : left > 0 ? (
        <span class="small"> fresh {seconds(left)}</span>
      ) : (
        <span class="small warn-text"> stale</span>
      )}
      {reply.cacheScope ? <span class="muted small"> · {reply.cacheScope}</span> : null}
    </span>
  );
}
