import { DurableObject } from "cloudflare:workers";

const KEEP_MS = 60_000;
const encoder = new TextEncoder();

/** A message no one waited for yet, and when this object received it (its own clock). */
type Kept = { message: string; at: number };

/**
 * A meeting point for one message between two requests that may run on different Worker
 * instances: one side waits (a streamed fetch that ends with the message), the other posts.
 * A message is delivered once: to whoever waits when it is posted, or else kept (for
 * `keepMs`, a minute unless the poster says) for the next one who comes. A waiter may say
 * which messages are too old for it (`?since=<ms>`): a kept message posted before then is
 * dropped and the waiter waits for the next. Used for responses to server-to-client requests
 * and for `notifications/cancelled`.
 */
export class Rendezvous extends DurableObject {
  readonly #waiters = new Set<ReadableStreamDefaultController<Uint8Array>>();

  override async fetch(request: Request): Promise<Response> {
    const since = Number(new URL(request.url).searchParams.get("since") ?? "");
    const kept = await this.ctx.storage.get<Kept>("kept");
    if (kept !== undefined) {
      await this.ctx.storage.delete("kept");
      if (!Number.isFinite(since) || kept.at >= since) return new Response(kept.message);
    }
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
  async post(message: string, keepMs = KEEP_MS): Promise<void> {
    if (this.#waiters.size === 0) {
      await this.ctx.storage.put("kept", { message, at: Date.now() } satisfies Kept);
      await this.ctx.storage.setAlarm(Date.now() + keepMs);
      return;
    }
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
