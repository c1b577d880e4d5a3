import { encodeSseComment, encodeSseMessage } from "../../shared/sse.ts";

/** How an SSE reply keeps alive, and how much it may hold for a client that is not reading. */
export type SseSettings = {
  /** Interval of keep-alive comments (0 turns them off). */
  keepAliveMs: number;
  /**
   * Bytes the stream may hold that the client has not read yet. Past that, the client has
   * stopped reading: the stream is closed with an error and `onGone` runs. One message larger
   * than this still goes out whole to a client that keeps up.
   */
  maxBufferedBytes: number;
};

/** The default of `maxBufferedBytes`: 1 MiB waiting for a client that stopped reading. */
export const DEFAULT_SSE_BUFFER_BYTES = 1024 * 1024;

/**
 * The response side of one SSE reply: JSON-RPC messages as `message` events, keep-alive
 * comments while the call runs, and `onGone` when the client stops reading: it closed the
 * stream, or it left more than `maxBufferedBytes` unread.
 */
export class SseWriter {
  readonly readable: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #timer: ReturnType<typeof setInterval> | undefined;
  #open = true;

  constructor(
    settings: SseSettings,
    private readonly onGone: () => void,
  ) {
    this.readable = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => {
          this.#stop();
          onGone();
        },
      },
      // desiredSize goes below zero once more than this many bytes wait unread.
      { highWaterMark: settings.maxBufferedBytes, size: (chunk) => chunk.byteLength },
    );
    if (settings.keepAliveMs > 0)
      this.#timer = setInterval(
        () => this.#enqueue(encodeSseComment("keep-alive")),
        settings.keepAliveMs,
      );
  }

  /** Sends one message; false when the stream is closed (by us, or by the client). */
  send(json: string): boolean {
    return this.#enqueue(encodeSseMessage(json));
  }

  close(): void {
    if (!this.#open) return;
    this.#stop();
    this.#controller.close();
  }

  #enqueue(bytes: Uint8Array): boolean {
    if (!this.#open) return false;
    const waiting = this.#controller.desiredSize;
    if (waiting !== null && waiting < 0) {
      // The client is not reading: what it left unread is dropped, and the stream ends.
      this.#stop();
      this.#controller.error(new Error("The client stopped reading the stream."));
      this.onGone();
      return false;
    }
    try {
      this.#controller.enqueue(bytes);
      return true;
    } catch {
      // The stream closed under us before its cancel callback ran.
      this.#stop();
      return false;
    }
  }

  #stop(): void {
    this.#open = false;
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }
}

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
} as const;
