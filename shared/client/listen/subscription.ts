import * as z from "zod/mini";
import { JsonRpcIdSchema, type JsonRpcId, type ServerMessage } from "../../protocol/messages.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { ListenNotificationSchema, type ListenNotification } from "../../protocol/notifications.ts";
import { CancelledParamsSchema, type ListenFilter } from "../../protocol/params.ts";
import { rpcError } from "../errors.ts";
import { AsyncQueue } from "./async-queue.ts";

/** Why a listen stream ended: closed here, closed by the server with a result, or dropped. */
export type ListenEnd = "local" | "graceful" | "remote";

/** The method that opens a listen stream. */
export const LISTEN_METHOD = "subscriptions/listen";

const SubscriptionMetaSchema = z.object({
  _meta: z.looseObject({ [MetaKey.subscriptionId]: z.optional(JsonRpcIdSchema) }),
});

/** The listen id a stream message names in its `_meta`, if it names one. */
export function subscriptionIdOf(params: Record<string, unknown> | undefined): string | undefined {
  const parsed = SubscriptionMetaSchema.safeParse(params);
  const id = parsed.success ? parsed.data._meta[MetaKey.subscriptionId] : undefined;
  return id === undefined ? undefined : String(id);
}

/**
 * An open `subscriptions/listen` stream: iterate it for notifications; `return()` (or
 * `close()`, or leaving a `for await` loop) closes the stream, which ends the subscription.
 */
export class Subscription implements AsyncIterableIterator<ListenNotification, undefined> {
  private readonly queue = new AsyncQueue<ListenNotification>();
  private endedAs: ((end: ListenEnd) => void) | undefined;
  /** Settles once the stream is over, with the reason. */
  readonly closed: Promise<ListenEnd>;

  constructor(
    /** The listen request's id, which every message of the stream names. */
    readonly id: JsonRpcId,
    /** What the server agreed to send (its acknowledgement). */
    readonly honoured: ListenFilter,
    private readonly controller: AbortController,
    events: AsyncIterator<ServerMessage>,
    observe: (notification: ListenNotification) => void,
  ) {
    this.closed = new Promise((resolve) => (this.endedAs = resolve));
    this.pump(events, observe);
  }

  /** Reads the rest of the stream in the background, so caches see changes at once. */
  private pump(
    events: AsyncIterator<ServerMessage>,
    observe: (notification: ListenNotification) => void,
  ): void {
    const run = async () => {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const message = next.value;
        if ("result" in message && message.id === this.id) return this.finish("graceful");
        if ("error" in message && message.id === this.id) {
          throw rpcError(message.error, 200, { era: "modern", method: LISTEN_METHOD });
        }
        if (!("method" in message) || "id" in message) continue;
        const named = subscriptionIdOf(message.params);
        if (named !== undefined && named !== String(this.id)) continue;
        if (message.method === "notifications/cancelled") {
          const cancelled = CancelledParamsSchema.safeParse(message.params);
          if (cancelled.success && String(cancelled.data.requestId) === String(this.id))
            return this.finish("remote");
          continue;
        }
        const notification = ListenNotificationSchema.safeParse(message);
        if (!notification.success) continue;
        observe(notification.data);
        this.queue.push(notification.data);
      }
      this.finish(this.controller.signal.aborted ? "local" : "remote");
    };
    run().catch((error: unknown) => {
      if (this.controller.signal.aborted) return this.finish("local");
      this.queue.fail(error);
      this.endedAs?.("remote");
    });
  }

  private finish(end: ListenEnd): void {
    this.queue.end();
    this.endedAs?.(end);
  }

  next(): Promise<IteratorResult<ListenNotification, undefined>> {
    return this.queue.next();
  }

  async return(): Promise<IteratorResult<ListenNotification, undefined>> {
    await this.close();
    return { value: undefined, done: true };
  }

  /** Closes the stream (the 2026 way to end a subscription); resolves once it is over. */
  async close(): Promise<void> {
    this.controller.abort();
    this.finish("local");
    await this.closed;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
