import { DurableObject } from "cloudflare:workers";
import * as z from "zod/mini";
import { ListenFilterSchema, type ListenFilter } from "../../shared/protocol/params.ts";
import { SseWriter } from "../http/sse.ts";
import { listenMessages, notificationFor, type ListenEvent } from "../mcp/durable.ts";

const OpenSchema = z.object({
  id: z.union([z.string(), z.number()]),
  subject: z.string(),
  filter: ListenFilterSchema,
  keepAliveMs: z.int().check(z.minimum(0)),
  maxBufferedBytes: z.int().check(z.positive()),
  maxMs: z.int().check(z.positive()),
});

type Subscriber = {
  subject: string;
  filter: ListenFilter;
  messages: ReturnType<typeof listenMessages>;
  writer: SseWriter;
  closeTimer: ReturnType<typeof setTimeout>;
};

/**
 * One server's listen streams, from every Worker instance: a `subscriptions/listen` request is
 * forwarded here and its SSE stream lives here, so an event published by any instance reaches
 * every open stream. Streams end when the client closes them, or gracefully after `maxMs`.
 */
export class ListenBus extends DurableObject {
  readonly #subscribers = new Set<Subscriber>();

  override async fetch(request: Request): Promise<Response> {
    const open = OpenSchema.parse(await request.json());
    const messages = listenMessages(open.id);
    // The writer sends keep-alive comments, and none once the stream is closed.
    const writer = new SseWriter(open, () => this.#drop(subscriber));
    writer.send(messages.acknowledged(open.filter));
    const subscriber: Subscriber = {
      subject: open.subject,
      filter: open.filter,
      messages,
      writer,
      closeTimer: setTimeout(() => this.#finish(subscriber), open.maxMs),
    };
    this.#subscribers.add(subscriber);
    return new Response(writer.readable, { headers: { "Content-Type": "text/event-stream" } });
  }

  /** Sends `event` to every stream whose filter asks for it; resolves with how many got it. */
  async publish(event: ListenEvent): Promise<number> {
    let delivered = 0;
    for (const subscriber of this.#subscribers) {
      // A stream naming another caller's task id hears nothing of it.
      if (event.kind === "task" && event.subject !== subscriber.subject) continue;
      const notification = notificationFor(subscriber.filter, event);
      if (!notification) continue;
      if (subscriber.writer.send(subscriber.messages.notification(notification))) delivered++;
      // The stream closed under us; its cancel callback may not have run yet.
      else this.#drop(subscriber);
    }
    return delivered;
  }

  /** Open streams (for tests and operators). */
  async count(): Promise<number> {
    return this.#subscribers.size;
  }

  /** Ends a stream gracefully: the listen result, then close, so the client knows to listen again. */
  #finish(subscriber: Subscriber): void {
    subscriber.writer.send(subscriber.messages.complete());
    subscriber.writer.close();
    this.#drop(subscriber);
  }

  #drop(subscriber: Subscriber): void {
    clearTimeout(subscriber.closeTimer);
    this.#subscribers.delete(subscriber);
  }
}
