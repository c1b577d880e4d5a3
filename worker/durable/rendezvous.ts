import { DurableObject } from "cloudflare:workers";

const KEEP_MS = 60_000;
const encoder = new TextEncoder();

/**
 * A meeting point for one message between two requests that may run on different Worker
 * instances: one side waits (a streamed fetch that ends with the message), the other posts.
 * A message posted before anyone waits is kept for a minute. Used for responses to
 * server-to-client requests and for `notifications/cancelled`.
 */
export class Rendezvous extends DurableObject {
  readonly #waiters = new Set<ReadableStreamDefaultController<Uint8Array>>();

  override async fetch(): Promise<Response> {
    const stored = await this.ctx.storage.get<string>("message");
    if (stored !== undefined) return new Response(stored);
    let waiter: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        waiter = controller;
        this.#waiters.add(controller);
      },
      cancel: () => {
        if (waiter) this.#waiters.delete(waiter);
      },
    });
    return new Response(body);
  }

  /** Delivers `message` to whoever waits now, or keeps it for whoever comes next. */
  async post(message: string): Promise<void> {
    await this.ctx.storage.put("message", message);
    await this.ctx.storage.setAlarm(Date.now() + KEEP_MS);
    for (const waiter of this.#waiters) {
      waiter.enqueue(encoder.encode(message));
      waiter.close();
    }
    this.#waiters.clear();
  }

  /**
   * Claims this object's name once (an MRTR round's nonce): true the first time, false after,
   * until `ttlMs` have passed (by then the requestState it guards has expired).
   */
  async claim(ttlMs: number): Promise<boolean> {
    if (await this.ctx.storage.get<boolean>("claimed")) return false;
    await this.ctx.storage.put("claimed", true);
    await this.ctx.storage.setAlarm(Date.now() + ttlMs);
    return true;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
