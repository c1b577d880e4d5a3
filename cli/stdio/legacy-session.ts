import { errorText } from "../../shared/error-text.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import { Header } from "../../shared/protocol/headers.ts";
import { sleep } from "../../shared/sleep.ts";
import { carriesMessage, decodeSse, type SseCursor } from "../../shared/sse.ts";
import type { Upstream } from "./upstream.ts";

// The first pause before opening a dropped stream again, and the longest.
const RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/**
 * What a 2025 server's `initialize` settled, sent on every later message: the negotiated
 * version and, when the server keeps sessions, its session id. A session may also have a
 * stream on which the server sends notifications and requests of its own.
 */
export class LegacySession {
  version: string | undefined;
  sessionId: string | undefined;
  private stream: AbortController | undefined;

  /** Reads the `initialize` reply: the session id header and the negotiated version. */
  observeInitialize(headers: Headers, message: unknown): void {
    const id = headers.get(Header.sessionId);
    if (id !== null) this.sessionId = id;
    const result = isJsonObject(message) ? message.result : undefined;
    if (isJsonObject(result) && typeof result.protocolVersion === "string") {
      this.version = result.protocolVersion;
    }
  }

  headers(): Record<string, string> {
    return {
      ...(this.version === undefined ? {} : { [Header.protocolVersion]: this.version }),
      ...(this.sessionId === undefined ? {} : { [Header.sessionId]: this.sessionId }),
    };
  }

  /**
   * Relays the server's own stream (GET) for as long as the session lasts: when it drops or
   * the server ends it, it is opened again after a pause (the server's `retry`, else 0.5 s;
   * doubling up to 30 s), with `Last-Event-ID` so a server that keeps event ids can resume. A server without such a stream
   * answers 405, an expired session 404: either ends it. An event that is not JSON is logged
   * and skipped.
   */
  async openStream(
    upstream: Upstream,
    relay: (message: unknown) => void,
    log: (line: string) => void,
  ): Promise<void> {
    const controller = new AbortController();
    this.stream = controller;
    const { signal } = controller;
    const cursor: SseCursor = {};
    let pause = RETRY_MS;
    let opened = false;
    while (!signal.aborted) {
      let delivered = false;
      let why: string;
      try {
        const headers = {
          ...this.headers(),
          ...(cursor.lastEventId === undefined ? {} : { "Last-Event-ID": cursor.lastEventId }),
        };
        const response = await upstream.listen(headers, signal);
        const type = response.headers.get("Content-Type") ?? "";
        if (response.status === 405 || (response.ok && !type.startsWith("text/event-stream"))) {
          // No stream offered: nothing to relay, ever.
          await response.body?.cancel();
          return;
        }
        if (response.status === 404) {
          await response.body?.cancel();
          if (opened) log("The server's stream ended: the session has expired (HTTP 404).");
          return;
        }
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          why = `HTTP ${response.status}`;
        } else {
          if (opened) log("The server's stream is open again.");
          opened = true;
          for await (const event of decodeSse(response.body, cursor)) {
            if (!carriesMessage(event)) continue;
            delivered = true;
            let message: unknown;
            try {
              message = JSON.parse(event.data);
            } catch {
              log(
                `The server's stream sent an event that is not JSON: ${event.data.slice(0, 200)}`,
              );
              continue;
            }
            relay(message);
          }
          why = "the server closed it";
        }
      } catch (error) {
        if (signal.aborted) return;
        why = errorText(error);
      }
      if (signal.aborted) return;
      // A stream that carried something was healthy: start the pauses over.
      if (delivered) pause = Math.min(cursor.retryMs ?? RETRY_MS, MAX_RETRY_MS);
      log(`The server's stream ended (${why}); opening it again in ${pause} ms.`);
      await sleep(pause, signal).catch(() => undefined);
      pause = Math.min(pause * 2, MAX_RETRY_MS);
    }
  }

  /** Closes the stream and deletes the session, if there is one. */
  async end(upstream: Upstream): Promise<void> {
    this.stream?.abort();
    if (this.sessionId !== undefined) await upstream.endSession(this.headers());
  }

  /** Closes the stream only. */
  stopStream(): void {
    this.stream?.abort();
  }
}
