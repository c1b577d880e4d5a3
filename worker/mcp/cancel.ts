import * as z from "zod/mini";
import type { Caller } from "../auth/bearer.ts";
import type { Rendezvous } from "../durable/rendezvous.ts";
import { awaitMessage, postMessage } from "../durable/rendezvous-client.ts";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";

const CancelMessageSchema = z.object({ at: z.number(), reason: z.optional(z.string()) });

/** How long a call runs before it listens for cancellation from other instances. */
const WATCH_AFTER_MS = 100;
/** Clock difference tolerated between instances when matching a cancel to its call. */
const SKEW_MS = 1_000;

/**
 * Whose request ids these are. Without sessions, an anonymous caller is known only by its
 * address; authenticated callers by their subject.
 */
export function callerKey(caller: Caller | undefined, request: Request): string {
  return caller
    ? `sub:${caller.subject}`
    : `ip:${request.headers.get("CF-Connecting-IP") ?? "local"}`;
}

function slot(key: string, id: JsonRpcId): string {
  return `cancel:${key}:${typeof id}:${String(id)}`;
}

/** Records a `notifications/cancelled` for a request that may be running on any instance. */
export async function postCancel(
  namespace: DurableObjectNamespace<Rendezvous>,
  key: string,
  id: JsonRpcId,
  reason: string | undefined,
): Promise<void> {
  await postMessage(namespace, slot(key, id), JSON.stringify({ at: Date.now(), reason }));
}

const FINISHED = new Error("The call finished.");

/**
 * Aborts a running call when its cancellation is posted from any instance. Fast calls never
 * touch the Durable Object; a cancel that arrived early is kept and applies on registration,
 * but one posted before this call started (a reused id) is ignored. Returns `stop`, to call
 * when the call ends.
 */
export function watchCancel(
  namespace: DurableObjectNamespace<Rendezvous>,
  key: string,
  id: JsonRpcId,
  abort: (reason: string) => void,
): () => void {
  const startedAt = Date.now();
  let waiting: AbortController | undefined;
  const timer = setTimeout(async () => {
    waiting = new AbortController();
    try {
      const message = CancelMessageSchema.parse(
        JSON.parse(await awaitMessage(namespace, slot(key, id), waiting.signal)),
      );
      if (message.at >= startedAt - SKEW_MS)
        abort(message.reason ?? "The client cancelled the request.");
    } catch {
      // The call finished first (stop aborted the wait), or the object was unreachable.
    }
  }, WATCH_AFTER_MS);
  return () => {
    clearTimeout(timer);
    waiting?.abort(FINISHED);
  };
}
