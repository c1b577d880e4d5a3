import { sleep } from "./sleep.ts";
import { carriesMessage, decodeSse, SseError, type SseCursor, type SseEvent } from "./sse.ts";

/** Opens a dropped stream again after `lastEventId`: a GET with `Last-Event-ID`. */
export type Reopen = (lastEventId: string, signal: AbortSignal | undefined) => Promise<Response>;

/** One attempt to resume, as a log line or the wire view would tell it. */
export type ResumeAttempt = { lastEventId: string; delayMs: number; attempt: number };

export type ResumeOptions = {
  reopen: Reopen;
  signal?: AbortSignal;
  /** Told before each attempt, once its delay is known. */
  onResume?: (attempt: ResumeAttempt) => void;
  /** The most one event may weigh, in bytes (default `MAX_SSE_EVENT_BYTES`). */
  maxEventBytes?: number;
};

/**
 * How long resuming may go on. Without a `retry:` from the server the first delay is a second;
 * each attempt that brings no message doubles it, up to the cap. The reader gives up after
 * `maxAttempts` such attempts in a row, or once no message has come for `maxQuietMs`.
 */
export const RESUME_LIMITS = {
  defaultRetryMs: 1_000,
  maxRetryMs: 30_000,
  maxAttempts: 5,
  maxQuietMs: 120_000,
};

/** Resuming a dropped stream failed: the server refused it, or it kept bringing nothing. */
export class SseResumeError extends Error {
  override readonly name = "SseResumeError";
  constructor(
    message: string,
    /** The HTTP status of a refused attempt. */
    readonly status?: number,
  ) {
    super(message);
  }
}

function isEventStream(response: Response): boolean {
  const type = response.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  return response.ok && type === "text/event-stream";
}

/** The attempts of one resumable stream: when to try again, and when to give up. */
class Attempts {
  private count = 0;
  private lastMessageAt = Date.now();
  private why = "";

  constructor(private readonly options: ResumeOptions) {}

  /** A message arrived: the stream is alive, so the count and the quiet time start over. */
  message(): void {
    this.count = 0;
    this.lastMessageAt = Date.now();
  }

  /** Opens the stream again after `lastEventId`, waiting and retrying within the limits. */
  async reopen(cursor: SseCursor, lastEventId: string): Promise<ReadableStream<Uint8Array>> {
    const { reopen, signal, onResume } = this.options;
    for (;;) {
      this.count += 1;
      const quietMs = Date.now() - this.lastMessageAt;
      if (this.count > RESUME_LIMITS.maxAttempts || quietMs > RESUME_LIMITS.maxQuietMs) {
        const tries = this.count - 1;
        throw new SseResumeError(
          `The server's stream ended and ${tries} attempt${tries === 1 ? "" : "s"} to resume it ` +
            `after event "${lastEventId}" brought no message in ${Math.round(quietMs / 1000)} s` +
            `${this.why ? ` (last: ${this.why})` : ""}.`,
        );
      }
      const base = Math.min(
        cursor.retryMs ?? RESUME_LIMITS.defaultRetryMs,
        RESUME_LIMITS.maxRetryMs,
      );
      const delayMs = Math.min(base * 2 ** (this.count - 1), RESUME_LIMITS.maxRetryMs);
      onResume?.({ lastEventId, delayMs, attempt: this.count });
      await sleep(delayMs, signal);
      let response: Response;
      try {
        response = await reopen(lastEventId, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        this.why = error instanceof Error ? error.message : String(error);
        continue;
      }
      if (!isEventStream(response) || response.body === null) {
        await response.body?.cancel().catch(() => {});
        const type = response.headers.get("Content-Type") ?? "no Content-Type";
        throw new SseResumeError(
          `The server's stream ended and it refused to resume it after event "${lastEventId}" ` +
            `(GET with Last-Event-ID: HTTP ${response.status}, ${type}).`,
          response.status,
        );
      }
      this.why = "the resumed stream ended";
      return response.body;
    }
  }
}

/**
 * The events of a stream that the server may drop and let the client resume (the 2025
 * Streamable HTTP transport): when the body ends or breaks after an event carried an id, the
 * stream is opened again with `reopen` after the server's `retry` delay, and reading goes on
 * there. A stream that never gave an id just ends (or rethrows its error). The consumer stops
 * by leaving the loop (which closes the current stream) or aborting the signal.
 */
export async function* resumableSse(
  body: ReadableStream<Uint8Array>,
  options: ResumeOptions,
): AsyncGenerator<SseEvent> {
  const cursor: SseCursor = {};
  const attempts = new Attempts(options);
  let current = body;
  for (;;) {
    let dropped: unknown;
    try {
      for await (const event of decodeSse(current, cursor, options.maxEventBytes)) {
        if (carriesMessage(event)) attempts.message();
        yield event;
      }
    } catch (error) {
      if (options.signal?.aborted || error instanceof SseError) throw error;
      dropped = error;
    }
    const { lastEventId } = cursor;
    if (lastEventId === undefined) {
      if (dropped !== undefined) throw dropped;
      return;
    }
    current = await attempts.reopen(cursor, lastEventId);
  }
}
