import { joinChunks } from "../../shared/bounded-body.ts";
import { HttpError } from "./http-error.ts";

/** The body was larger than the configured limit (413). */
export class BodyTooLarge extends HttpError {
  constructor(readonly limit: number) {
    super(413, `The request body exceeds the ${limit}-byte limit. Send a smaller request.`);
  }
}

/** The body did not arrive in time (408): a client trickling it in holds the request open. */
export class BodyTooSlow extends HttpError {
  constructor(readonly deadlineMs: number) {
    super(
      408,
      `The request body did not arrive within ${deadlineMs / 1000} s. Send the whole body at once.`,
    );
  }
}

/** How much of a body is read, and for how long. */
export type BodyLimits = {
  /** Largest body in bytes. */
  maxBytes: number;
  /** How long reading the whole body may take, in milliseconds (0: no deadline). */
  deadlineMs: number;
};

/**
 * Reads the body of a request that came over HTTP, as `readLimited` does. When the request
 * declares a length within the limit (and no `Transfer-Encoding`), HTTP framing holds the body
 * to that length, so the runtime reads it whole (`arrayBuffer`: far cheaper per request than a
 * reader loop; an absent body reads as no bytes) under the same deadline, and its size is
 * checked again. Anything else, a length over the limit included, goes to `readLimited`. Only
 * for requests: a fetched response's declared length can be that of its compressed form.
 */
export async function readRequestBody(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  const { headers } = request;
  const declared = Number(headers.get("Content-Length") ?? NaN);
  const { maxBytes, deadlineMs } = limits;
  // `request.body` is not read here: in workerd that getter makes a stream object per request.
  if (!(declared <= maxBytes) || headers.has("Transfer-Encoding"))
    return readLimited(request, limits, "drain");
  const buffer = await withDeadline(request.arrayBuffer(), deadlineMs);
  if (buffer.byteLength > maxBytes) throw new BodyTooLarge(maxBytes);
  return new Uint8Array(buffer);
}

/**
 * `read`, or a BodyTooSlow rejection once `ms` have passed (0: no deadline): one timer, cleared
 * as soon as `read` settles, and one promise (a `Promise.race` with a deadline promise costs
 * two more per request).
 */
function withDeadline<T>(read: Promise<T>, ms: number): Promise<T> {
  if (!(ms > 0)) return read;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BodyTooSlow(ms)), ms);
    read.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A deadline over several reads (a reader loop): `race` rejects with BodyTooSlow once `ms` have
 * passed (0: never).
 */
class Deadline {
  readonly #late: Promise<never> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    if (ms > 0)
      this.#late = new Promise<never>((_resolve, reject) => {
        this.#timer = setTimeout(() => reject(new BodyTooSlow(ms)), ms);
      });
  }

  race<T>(read: Promise<T>): Promise<T> {
    if (!this.#late) return read;
    // A read that loses the race may still fail later: that is not worth a rejection warning.
    read.catch(() => {});
    return Promise.race([read, this.#late]);
  }

  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }
}

/**
 * How many bytes of an oversized request body are read and dropped before the 413 is sent. A
 * client still sending when the answer comes and the connection closes sees a failed
 * connection, not the 413 (Node's `fetch` does; a proxy in front makes it a 502): reading the
 * rest first lets it read why. Beyond this (or the body deadline) the connection is cut.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * What happens to the rest of a body found too large: a fetched response's is cancelled; a
 * request's is drained (up to `DRAIN_MAX_BYTES`, under the deadline) so its client reads the 413.
 */
export type Overflow = "cancel" | "drain";

/**
 * Reads a request body (or a fetched response's) as bytes, stopping as soon as it passes
 * `maxBytes` (a declared length is refused before a byte is kept, a streamed body once too
 * much has arrived) or when it is still arriving after `deadlineMs`: a body sent a byte at a
 * time cannot hold the request open.
 */
export async function readLimited(
  request: Pick<Request, "headers" | "body">,
  limits: BodyLimits,
  overflow: Overflow = "cancel",
): Promise<Uint8Array> {
  const { maxBytes, deadlineMs } = limits;
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > maxBytes) {
    if (overflow === "drain" && declared <= DRAIN_MAX_BYTES && request.body)
      await drain(request.body.getReader(), declared, new Deadline(deadlineMs));
    // Not a byte of it is wanted (a fetched response's body would otherwise stay open).
    else request.body?.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array();

  const reader = request.body.getReader();
  const deadline = new Deadline(deadlineMs);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await deadline.race(reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        chunks.length = 0;
        if (overflow === "drain") await drain(reader, DRAIN_MAX_BYTES - total, deadline);
        throw new BodyTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    // The rest of the body is not wanted: stop the client sending it.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    deadline.clear();
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  return joinChunks(chunks, total);
}

/**
 * Reads and drops up to `budget` more bytes of a body until it ends; resolves either way (the
 * caller answers 413 next, and cancels what is left). A slow or endless body stops it at the
 * deadline or the budget.
 */
async function drain(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  budget: number,
  deadline: Deadline,
): Promise<void> {
  let left = budget;
  try {
    while (left > 0) {
      const { done, value } = await deadline.race(reader.read());
      if (done) return;
      left -= value.byteLength;
    }
  } catch {
    // Too slow, or the client went away: the 413 is still the answer.
  } finally {
    reader.cancel().catch(() => {});
    deadline.clear();
  }
}
