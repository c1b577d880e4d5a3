import { errorText } from "../../shared/error-text.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import { Header } from "../../shared/protocol/headers.ts";
import { replyMessages } from "./reply.ts";
import type { Upstream } from "./upstream.ts";

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
   * Relays the server's own stream (GET) until it ends; a server without sessions answers
   * 405, and there is nothing to open.
   */
  async openStream(
    upstream: Upstream,
    relay: (message: unknown) => void,
    log: (line: string) => void,
  ): Promise<void> {
    const controller = new AbortController();
    this.stream = controller;
    try {
      const response = await upstream.listen(this.headers(), controller.signal);
      const type = response.headers.get("Content-Type") ?? "";
      if (!response.ok || !type.startsWith("text/event-stream")) {
        await response.body?.cancel();
        return;
      }
      for await (const message of replyMessages(response)) relay(message);
    } catch (error) {
      if (!controller.signal.aborted) log(`The server's stream ended: ${errorText(error)}`);
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
