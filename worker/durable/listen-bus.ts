import { DurableObject } from "cloudflare:workers";
import * as z from "zod";
import { MetaKey } from "../../shared/protocol/meta.ts";
import { encodeSseComment, encodeSseMessage } from "../../shared/sse.ts";
import { ListenFilterSchema, type ListenFilter } from "../../shared/protocol/notifications.ts";
import { notificationFor, type BusEvent } from "./listen-filter.ts";

const OpenSchema = z.object({
  id: z.union([z.string(), z.number()]),
  filter: ListenFilterSchema,
  keepAliveMs: z.number().int().min(0),
  maxMs: z.number().int().positive(),
});

type Subscriber = {
  id: string | number;
  filter: ListenFilter;
  controller: ReadableStreamDefaultController<Uint8Array>;
  closeTimer: ReturnType<typeof setTimeout>;
};

/**
 * One server's listen streams, from every Worker instance: a `subscriptions/listen` request is
 * forwarded here and its SSE stream lives here, so an event published by any instance reaches
 * every open stream. Streams end when the client closes them, or gracefully after `maxMs`.
 */
export class ListenBus extends DurableObject {
  readonly #subscribers = new Set<Subscriber>();
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  override async fetch(request: Request): Promise<Response> {
    const open = OpenSchema.parse(await request.json());
    let subscriber: Subscriber | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const tag = { [MetaKey.subscriptionId]: open.id };
        const ack = {
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: tag, notifications: open.filter },
        };
        controller.enqueue(encodeSseMessage(JSON.stringify(ack)));
        const closeTimer = setTimeout(() => this.#finish(current), open.maxMs);
        const current: Subscriber = { id: open.id, filter: open.filter, controller, closeTimer };
        subscriber = current;
        this.#subscribers.add(current);
        this.#startKeepAlive(open.keepAliveMs);
      },
      cancel: () => {
        if (subscriber) this.#drop(subscriber);
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  }

  /** Sends `event` to every stream whose filter asks for it; resolves with how many got it. */
  async publish(event: BusEvent): Promise<number> {
    let delivered = 0;
    for (const subscriber of this.#subscribers) {
      const notification = notificationFor(subscriber.filter, event);
      if (!notification) continue;
      const params = { ...notification.params, _meta: { [MetaKey.subscriptionId]: subscriber.id } };
      try {
        subscriber.controller.enqueue(
          encodeSseMessage(JSON.stringify({ jsonrpc: "2.0", method: notification.method, params })),
        );
        delivered++;
      } catch {
        // The stream closed under us; its cancel callback may not have run yet.
        this.#drop(subscriber);
      }
    }
    return delivered;
  }

  /** Open streams (for tests and operators). */
  async count(): Promise<number> {
    return this.#subscribers.size;
  }

  /** Ends a stream gracefully: the listen result, then close, so the client knows to listen again. */
  #finish(subscriber: Subscriber): void {
    const result = {
      jsonrpc: "2.0",
      id: subscriber.id,
      result: { resultType: "complete", _meta: { [MetaKey.subscriptionId]: subscriber.id } },
    };
    subscriber.controller.enqueue(encodeSseMessage(JSON.stringify(result)));
    subscriber.controller.close();
    this.#drop(subscriber);
  }

  #drop(subscriber: Subscriber): void {
    clearTimeout(subscriber.closeTimer);
    this.#subscribers.delete(subscriber);
    if (this.#subscribers.size === 0 && this.#keepAlive !== undefined) {
      clearInterval(this.#keepAlive);
      this.#keepAlive = undefined;
    }
  }

  #startKeepAlive(intervalMs: number): void {
    if (this.#keepAlive !== undefined || intervalMs === 0) return;
    this.#keepAlive = setInterval(() => {
      for (const subscriber of this.#subscribers)
        subscriber.controller.enqueue(encodeSseComment("keep-alive"));
    }, intervalMs);
  }
}
