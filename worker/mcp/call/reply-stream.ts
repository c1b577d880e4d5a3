import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { ReplyMode } from "../../http/accept.ts";
import { SSE_HEADERS, SseWriter, type SseSettings } from "../../http/sse.ts";
import { serialized, type Outcome } from "../request/reply.ts";
import type { CallAbort } from "./abort.ts";
import type { Notify } from "../context/context.ts";

/**
 * The call's reply while it runs: an SSE stream from the handler's first notification (when
 * `Accept` allows one), else nothing until the outcome, which the respond stage frames whole.
 * Closing that stream, or leaving too much of it unread, aborts the call; nothing is sent after
 * that.
 */
export class ReplyStream {
  /** The stream's response once the handler sends before its outcome, else the outcome. */
  readonly first: Promise<Response | Outcome>;
  /** Sends a message before the response; false when the client cannot receive it. */
  readonly send: Notify;
  #settle!: (first: Response | Outcome) => void;
  #stream: SseWriter | undefined;

  constructor(
    private readonly mode: ReplyMode,
    private readonly sse: SseSettings,
    private readonly abort: CallAbort,
  ) {
    this.first = new Promise((resolve) => (this.#settle = resolve));
    // Assigned here rather than as an arrow property, which name-keeping bundlers rename per call.
    this.send = (message) => this.#send(message);
  }

  #send(message: JsonObject): boolean {
    if (this.mode === "json-only" || this.abort.aborted) return false;
    if (!this.#stream) {
      const writer = new SseWriter(this.sse, () =>
        this.abort.abort(new Error("The client closed the stream.")),
      );
      this.#settle(new Response(writer.readable, { headers: SSE_HEADERS }));
      this.#stream = writer;
    }
    this.#stream.send(JSON.stringify(message));
    return true;
  }

  /** Ends the reply with the call's outcome: last on the stream, or as the whole reply. */
  end(outcome: Outcome): void {
    if (!this.#stream) return this.#settle(outcome);
    if (!this.abort.aborted) this.#stream.send(serialized(outcome.message));
    this.#stream.close();
  }
}
