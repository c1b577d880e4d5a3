/** One Server-Sent Events event (comments are dropped by the decoder). */
export type SseEvent = { event: string; data: string; id?: string };

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
 * Decodes an SSE byte stream incrementally (WHATWG EventSource parsing rules: CRLF, CR or LF
 * line ends, multi-line `data`, comments, an optional space after the colon).
 */
export async function* decodeSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  let pendingCr = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (pendingCr && buffer.startsWith("\n")) buffer = buffer.slice(1);
      pendingCr = false;
      let match: RegExpExecArray | null;
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      while ((match = lineEnd.exec(buffer))) {
        // A lone CR at the end of a chunk may be the first half of a CRLF.
        if (match[0] === "\r" && match.index === buffer.length - 1 && !done) pendingCr = true;
        const line = buffer.slice(start, match.index);
        start = match.index + match[0].length;
        if (line === "") {
          if (data.length > 0)
            yield {
              event: event || "message",
              data: data.join("\n"),
              ...(id === undefined ? {} : { id }),
            };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let fieldValue = colon === -1 ? "" : line.slice(colon + 1);
        if (fieldValue.startsWith(" ")) fieldValue = fieldValue.slice(1);
        if (field === "event") event = fieldValue;
        else if (field === "data") data.push(fieldValue);
        else if (field === "id" && !fieldValue.includes("\0")) id = fieldValue;
      }
      buffer = buffer.slice(start);
      if (done) return;
    }
  } finally {
    // A consumer that stops early closes the stream: for MCP that cancels the request. (On a
    // finished stream this does nothing; a failed one may reject, and the lock is released anyway.)
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
