/**
 * One dispatched Server-Sent Events event: its type, its data, and the stream's last event id
 * when it has one (the id persists from earlier events, as WHATWG's `lastEventId` does).
 */
export type SseEvent = { event: string; data: string; id?: string };

/**
 * What a stream has said about resuming it, updated as the decoder reads: the last event id
 * (set when an event ends, data or not; never empty) and the reconnection delay from `retry:`.
 */
export type SseCursor = { lastEventId?: string; retryMs?: number };

/** A stream that breaks the decoder's bounds (an event too large to hold). */
export class SseError extends Error {
  override readonly name = "SseError";

  constructor(
    message: string,
    /** The bound it broke, in bytes. */
    readonly limit: number,
  ) {
    super(message);
  }
}

// An event's lines are held until it ends; a server that never ends one must not exhaust memory.
export const MAX_SSE_EVENT_BYTES = 32 * 1024 * 1024;

/** The length of a decoded text in UTF-8 bytes (it holds no lone surrogates: a pair is four). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

const encoder = new TextEncoder();

/** Frames a JSON-RPC message as one SSE `message` event. */
export function encodeSseMessage(json: string): Uint8Array {
  return encoder.encode(`event: message\ndata: ${json}\n\n`);
}

/** An SSE comment line; proxies see traffic and the client ignores it. */
export function encodeSseComment(text: string): Uint8Array {
  return encoder.encode(`: ${text}\n\n`);
}

/**
 * Whether an event carries a JSON-RPC message: a `message` event with data. An empty `data:`
 * (the 2025-11-25 transport's priming event, sent to hand the client an id to resume from) is
 * dispatched by the SSE rules but carries nothing.
 */
export function carriesMessage(event: SseEvent): boolean {
  return event.event === "message" && event.data !== "";
}

/** The parser's state between lines: the event being built and the stream's cursor. */
class EventBuilder {
  private type = "";
  private data: string[] | undefined;
  private idBuffer: string | undefined;
  private bytes = 0;

  constructor(
    private readonly cursor: SseCursor,
    private readonly maxBytes: number,
  ) {}

  /** Takes one line (without its end); returns the event when the line ends one. */
  line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    this.bytes += utf8Length(line);
    if (this.bytes > this.maxBytes) {
      throw new SseError(`An SSE event is larger than ${this.maxBytes} bytes.`, this.maxBytes);
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.type = value;
    else if (field === "data") (this.data ??= []).push(value);
    else if (field === "id" && !value.includes("\0")) this.idBuffer = value;
    else if (field === "retry" && /^[0-9]+$/.test(value)) this.cursor.retryMs = Number(value);
    return undefined;
  }

  /** A blank line: the id takes effect whether or not there is data; only data dispatches. */
  private dispatch(): SseEvent | undefined {
    if (this.idBuffer !== undefined) {
      if (this.idBuffer === "") delete this.cursor.lastEventId;
      else this.cursor.lastEventId = this.idBuffer;
    }
    const { data, type } = this;
    this.type = "";
    this.data = undefined;
    this.bytes = 0;
    if (data === undefined) return undefined;
    const id = this.cursor.lastEventId;
    return { event: type || "message", data: data.join("\n"), ...(id === undefined ? {} : { id }) };
  }
}

/**
 * Decodes an SSE byte stream incrementally by the WHATWG EventSource parsing rules: UTF-8 with
 * an optional BOM, CRLF, CR or LF line ends (split across chunks too), comments, fields with or
 * without a colon and one optional space after it, multi-line `data`, `event`, `id` (ignored
 * when it contains NUL; an empty one clears it) and `retry` (digits only). Events without a
 * `data` line are not dispatched but their id still counts; an event cut off by the stream's
 * end is dropped. `cursor` is updated as events end, so a caller can resume where it stopped.
 */
export async function* decodeSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor = {},
  maxEventBytes = MAX_SSE_EVENT_BYTES,
): AsyncGenerator<SseEvent> {
  // TextDecoder drops one leading BOM, as the SSE rules ask.
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const builder = new EventBuilder(cursor, maxEventBytes);
  // The start of a line still being received, in pieces: each chunk is scanned once.
  let partial: string[] = [];
  let partialBytes = 0;
  let pendingCr = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (text === "" && !done) continue;
      if (pendingCr && text.startsWith("\n")) text = text.slice(1);
      pendingCr = false;
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      let match: RegExpExecArray | null;
      while ((match = lineEnd.exec(text))) {
        // A lone CR at the end of a chunk may be the first half of a CRLF.
        if (match[0] === "\r" && match.index === text.length - 1) pendingCr = true;
        const piece = text.slice(start, match.index);
        const line = partial.length === 0 ? piece : partial.join("") + piece;
        partial = [];
        partialBytes = 0;
        start = match.index + match[0].length;
        const event = builder.line(line);
        if (event) yield event;
      }
      if (start < text.length) {
        const rest = text.slice(start);
        partial.push(rest);
        partialBytes += utf8Length(rest);
        if (partialBytes > maxEventBytes) {
          throw new SseError(`An SSE line is longer than ${maxEventBytes} bytes.`, maxEventBytes);
        }
      }
      if (done) return;
    }
  } finally {
    // A consumer that stops early closes the stream: for MCP that cancels the request. (On a
    // finished stream this does nothing; a failed one may reject, and the lock is released anyway.)
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
