import { decodeSse, type SseCursor } from "../../../shared/sse.ts";
import type { Exchange } from "../lib/exchange.ts";
import { addEventFrame, addFrame, publish, remember, MAX_BODY_CHARS } from "./wire.ts";

/** Reads the copy of a response body into the exchange: its SSE events or its JSON, as they come. */
async function recordBody(
  exchange: Exchange,
  copy: ReadableStream<Uint8Array>,
  t0: number,
): Promise<void> {
  try {
    if (exchange.contentType === "text/event-stream") {
      const cursor: SseCursor = {};
      try {
        for await (const event of decodeSse(copy, cursor))
          addEventFrame(exchange, event, performance.now() - t0);
      } finally {
        // An id on an event without data is not dispatched but is still where a resume starts.
        if (cursor.lastEventId !== undefined) remember(cursor.lastEventId, exchange);
      }
    } else {
      const text = await new Response(copy).text();
      if (exchange.contentType === "application/json" && text !== "")
        addFrame(exchange, text, performance.now() - t0);
      else if (text !== "") exchange.bodyText = text.slice(0, MAX_BODY_CHARS);
    }
  } catch (error) {
    exchange.error = String(error);
  }
  // A client stops reading a stream once it has its answer; closing one before that is what a
  // cancelled call or a closed listen stream looks like.
  if (exchange.cancelled && !exchange.answered) exchange.error ??= "closed by the client";
  exchange.end = performance.now() - t0;
  publish(exchange);
}

/**
 * The body as the client reads it, each chunk also copied to the recorder. Cancelling it (the
 * client closing a stream, which is how a call is cancelled) cancels the network read itself:
 * a tee would keep the connection open for its other branch, and the server would never know.
 */
export function passThrough(
  exchange: Exchange,
  body: ReadableStream<Uint8Array>,
  t0: number,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let copy!: ReadableStreamDefaultController<Uint8Array>;
  const copied = new ReadableStream<Uint8Array>({
    start: (controller) => void (copy = controller),
  });
  void recordBody(exchange, copied, t0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          copy.close();
          controller.close();
          return;
        }
        exchange.bytes += value.byteLength;
        copy.enqueue(value.slice());
        controller.enqueue(value);
      } catch (error) {
        copy.error(error);
        controller.error(error);
      }
    },
    cancel(reason) {
      // The recorder still reads what arrived before; it decides once it has (recordBody).
      exchange.cancelled = true;
      copy.close();
      return reader.cancel(reason);
    },
  });
}
