import type { JsonObject, JsonRpcId } from "../../../shared/protocol/messages.ts";
import type { ListenFilter } from "../../../shared/protocol/params.ts";
import { SSE_HEADERS, SseWriter, type SseSettings } from "../../http/sse.ts";
import type { HandlerContext } from "../context/context.ts";
import { listenMessages } from "./messages.ts";

/** How long a listen stream stays open, and how often it sends keep-alives. */
export type ListenSettings = SseSettings & { maxMs: number };

/**
 * Opens one listen stream: `context` makes the handler context for a signal that aborts when the
 * stream ends.
 */
export type ListenStreams = (
  id: JsonRpcId,
  filter: ListenFilter,
  context: (signal: AbortSignal) => HandlerContext,
  settings: ListenSettings,
) => Response;

/**
 * Produces notifications for one listen stream until `ctx.signal` aborts: `emit` sends one
 * (the runtime tags it with the subscription id). Resolving ends the stream gracefully.
 */
export type ListenSource = (
  filter: ListenFilter,
  ctx: HandlerContext,
  emit: (notification: { method: string; params?: JsonObject }) => void,
) => Promise<void>;

/**
 * Listen streams fed by a server's own source (the hub relaying its upstreams): the
 * acknowledgement first, then what the source emits, tagged with the subscription id. The
 * stream ends gracefully when the source is done or after `maxMs`; the client closing it
 * aborts the source.
 */
export function sourceStreams(source: ListenSource): ListenStreams {
  return (id, filter, context, settings) => {
    const stop = new AbortController();
    const writer = new SseWriter(settings, () =>
      stop.abort(new Error("The client closed the listen stream.")),
    );
    const messages = listenMessages(id);
    writer.send(messages.acknowledged(filter));
    const timer = setTimeout(
      () => stop.abort(new Error("The listen stream reached its time limit.")),
      settings.maxMs,
    );
    const emit = (notification: { method: string; params?: JsonObject }) => {
      if (!stop.signal.aborted) writer.send(messages.notification(notification));
    };
    void source(filter, context(stop.signal), emit)
      .catch((error: unknown) => console.error("A listen source failed", error))
      .finally(() => {
        clearTimeout(timer);
        writer.send(messages.complete()); // nothing is sent once the client closed the stream
        writer.close();
      });
    return new Response(writer.readable, { headers: SSE_HEADERS });
  };
}
