import { ErrorCode } from "../../protocol/errors.ts";
import { ServerMessageSchema } from "../../protocol/messages.ts";
import type { Connection } from "../connection.ts";
import type { ServerRequest } from "../read-reply.ts";
import { post, postHeaders } from "../transport.ts";
import type { ServerNotification } from "./types.ts";

/** Answers one server request by POSTing its response (the era's way). */
export type AnswerRequest = (
  conn: Connection,
  request: ServerRequest,
  signal: AbortSignal,
) => Promise<void>;

// Requests the client is still answering (an elicitation waits for a person); past this many
// the server is told at once that the client is busy, so a flood cannot pile up work.
const MAX_PENDING_REQUESTS = 16;

/**
 * Delivers what arrives on a background stream: requests are answered concurrently (the
 * stream keeps being read while a person answers), notifications go to `notify`, responses and
 * text that is not a JSON-RPC message are skipped.
 */
export class Deliverer {
  private pending = 0;

  constructor(
    private readonly conn: Connection,
    private readonly answer: AnswerRequest,
    private readonly notify: (notification: ServerNotification) => void,
    private readonly signal: AbortSignal,
  ) {}

  /** Handles one event's data; returns whether it was a JSON-RPC message. */
  deliver(data: string): boolean {
    if (data.trim() === "") return false;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return false;
    }
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) return false;
    const message = parsed.data;
    this.conn.onWire?.({ type: "message", url: this.conn.url, message });
    if (!("method" in message)) return true;
    if ("id" in message) {
      this.request({ id: message.id, method: message.method, params: message.params });
    } else {
      this.notify({ method: message.method, params: message.params });
    }
    return true;
  }

  private request(request: ServerRequest): void {
    if (this.pending >= MAX_PENDING_REQUESTS) {
      void this.refuse(request);
      return;
    }
    this.pending++;
    this.answer(this.conn, request, this.signal)
      .catch(() => {
        // The answer could not be posted (the session ended, the client closed): the server
        // times the request out.
      })
      .finally(() => this.pending--);
  }

  private async refuse(request: ServerRequest): Promise<void> {
    const body = {
      jsonrpc: "2.0",
      id: request.id,
      error: {
        code: ErrorCode.InternalError,
        message: "The client is busy with other requests from this server.",
      },
    };
    const context = { era: "legacy" as const, method: request.method };
    try {
      const response = await post(this.conn, body, postHeaders(this.conn), this.signal, context);
      await response.body?.cancel();
    } catch {
      // As above: the server times the request out.
    }
  }
}
