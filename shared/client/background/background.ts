import { linkedController } from "../../abortable.ts";
import { sleep } from "../../sleep.ts";
import { RESUME_LIMITS } from "../../sse-resume.ts";
import { carriesMessage, decodeSse, SseError, type SseCursor } from "../../sse.ts";
import type { Connection } from "../connection.ts";
import { mediaTypeOf } from "../read-reply.ts";
import { getStream } from "../transport.ts";
import { Deliverer, type AnswerRequest } from "./deliver.ts";
import type { BackgroundSink, BackgroundState } from "./types.ts";

// The server's `retry` is honoured up to the limits a dropped reply is resumed within, and no
// faster than this: a stream that keeps ending must not make the client hammer the server.
const MIN_RETRY_MS = 250;
const { defaultRetryMs, maxRetryMs, maxAttempts } = RESUME_LIMITS;
// How long `open` waits for the first answer before letting the stream connect on its own.
const FIRST_ANSWER_MS = 5000;

type Attempt = { outcome: "ended" | "refused"; events: number; detail?: string };

/**
 * The GET stream of a 2025 session (Streamable HTTP): requests the server sends outside a call
 * (roots, sampling, elicitation, ping) are answered with POSTs, notifications go to the sink.
 * When it drops, it reconnects after the server's `retry` delay with `Last-Event-ID`, backing
 * off, and gives up after a few attempts that bring nothing. `close` ends it.
 */
export class BackgroundStream {
  private readonly controller = new AbortController();
  /** The last event id and the server's `retry`, kept across reconnections. */
  private readonly cursor: SseCursor = {};
  private current: BackgroundState = { status: "connecting" };
  private firstAnswer: (() => void) | undefined;
  /** Settles when the stream is over for good (closed, unsupported or failed). */
  readonly done: Promise<void>;

  constructor(
    private readonly conn: Connection,
    answer: AnswerRequest,
    private readonly sink: BackgroundSink,
  ) {
    const deliverer = new Deliverer(conn, answer, sink.onNotification, this.controller.signal);
    this.done = this.run(deliverer);
  }

  get state(): BackgroundState {
    return this.current;
  }

  /** Resolves once the server first answered the GET (or after a few seconds without). */
  async opened(): Promise<void> {
    if (this.current.status !== "connecting") return;
    // The wait's own timer ends with it, so nothing outlives the answer (a CLI exits at once).
    const { controller: waited, unlink } = linkedController(this.controller.signal);
    await Promise.race([
      new Promise<void>((resolve) => (this.firstAnswer = resolve)),
      sleep(FIRST_ANSWER_MS, waited.signal).catch(() => {}),
    ]);
    unlink();
    waited.abort();
  }

  /** Ends the stream (the client is closing): no reconnection follows. */
  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }

  private report(state: BackgroundState): void {
    this.current = state;
    if (state.status !== "connecting") this.firstAnswer?.();
    this.sink.onState(state);
  }

  private async run(deliverer: Deliverer): Promise<void> {
    const { signal } = this.controller;
    let failures = 0;
    while (!signal.aborted) {
      const attempt = await this.attempt(deliverer).catch((error: unknown): Attempt => ({
        outcome: "ended",
        events: 0,
        detail:
          error instanceof SseError
            ? `${error.message} The rest was not read; the client option maxReplyBytes raises this limit.`
            : String(error),
      }));
      if (signal.aborted) break;
      if (attempt.outcome === "refused") return;
      failures = attempt.events > 0 ? 1 : failures + 1;
      if (failures > maxAttempts) {
        const detail = `Gave up after ${maxAttempts} reconnections in a row brought no message.`;
        return this.report({ status: "failed", detail });
      }
      const retry = Math.min(
        Math.max(this.cursor.retryMs ?? defaultRetryMs, MIN_RETRY_MS),
        maxRetryMs,
      );
      const delay = Math.min(retry * 2 ** (failures - 1), maxRetryMs);
      this.report({
        status: "reconnecting",
        detail: attempt.detail ?? `The stream ended; reconnecting in ${delay} ms.`,
      });
      await sleep(delay, signal).catch(() => {});
    }
    this.report({ status: "closed" });
  }

  /** One GET and the reading of its stream, until it ends. */
  private async attempt(deliverer: Deliverer): Promise<Attempt> {
    const headers = this.conn.sessionHeaders();
    const { lastEventId } = this.cursor;
    if (lastEventId !== undefined) headers.set("Last-Event-ID", lastEventId);
    const context = { era: "legacy" as const, method: "GET" };
    const response = await getStream(this.conn, headers, this.controller.signal, context);
    if (response.status === 405) {
      await response.body?.cancel();
      this.report({ status: "unsupported", detail: "The server offers no background stream." });
      return { outcome: "refused", events: 0 };
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      return {
        outcome: "ended",
        events: 0,
        detail: `The GET failed with HTTP ${response.status}.`,
      };
    }
    if (!response.ok || mediaTypeOf(response) !== "text/event-stream" || !response.body) {
      await response.body?.cancel();
      const type = mediaTypeOf(response) || "no type";
      const detail = `The server answered the background stream's GET with HTTP ${response.status} (${type}).`;
      this.report({ status: "failed", detail });
      return { outcome: "refused", events: 0 };
    }
    this.report({ status: "open" });
    // Only messages count as life: a server that sends nothing but its priming event each time
    // it is reconnected to is given up on like one that refuses.
    let events = 0;
    for await (const event of decodeSse(response.body, this.cursor, this.conn.maxReplyBytes)) {
      if (carriesMessage(event) && deliverer.deliver(event.data)) events++;
    }
    return { outcome: "ended", events };
  }
}
