import { encodeSseComment, encodeSseMessage } from "../../shared/sse.ts";

/**
 * The response side of one SSE reply: JSON-RPC messages as `message` events, keep-alive
 * comments while the call runs, and a callback when the client stops reading.
 */
export class SseWriter {
  readonly readable: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #timer: ReturnType<typeof setInterval> | undefined;
  #open = true;

  constructor(keepAliveMs: number, onCancel: () => void) {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#stop();
        onCancel();
      },
    });
    if (keepAliveMs > 0)
      this.#timer = setInterval(() => this.#enqueue(encodeSseComment("keep-alive")), keepAliveMs);
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
