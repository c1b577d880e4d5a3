import type { JsonObject } from "../../shared/protocol/messages.ts";
import { listenMessages } from "../durable/listen-messages.ts";
import type { ListenSource, ListenStreams } from "./define.ts";
import { SSE_HEADERS, SseWriter } from "./sse-writer.ts";

/**
 * A listen stream fed by the server's own source (the hub relaying its upstreams): the
 * acknowledgement first, then what the source emits, tagged with the subscription id. The
 * stream ends gracefully when the source is done or after `maxMs`; the client closing it
 * aborts the source.
 */
export function listenFromSource(source: ListenSource): ListenStreams {
  return (id, filter, context, settings) => {
    const stop = new AbortController();
    const writer = new SseWriter(settings.keepAliveMs, () =>
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
