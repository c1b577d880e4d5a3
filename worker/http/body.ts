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
 * declares its length (within the limit, and no `Transfer-Encoding`), HTTP framing holds the
 * body to that length, so it is read whole by the runtime (`arrayBuffer`: far cheaper per
 * request than reading the stream chunk by chunk) under the same deadline, and its size is
 * checked again. Only for requests: a fetched response's declared length can be that of its
 * compressed form.
 */
export async function readRequestBody(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  const { headers } = request;
  const declared = headers.get("Content-Length");
  if (declared === null || headers.has("Transfer-Encoding") || !request.body)
    return readLimited(request, limits);
  const { maxBytes, deadlineMs } = limits;
  if (!(Number(declared) <= maxBytes)) {
    request.body.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  const whole = request.arrayBuffer();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let buffer: ArrayBuffer;
  try {
    buffer =
      deadlineMs > 0
        ? await Promise.race([
            whole,
            new Promise<never>((_resolve, reject) => {
              timer = setTimeout(() => reject(new BodyTooSlow(deadlineMs)), deadlineMs);
            }),
          ])
        : await whole;
  } catch (error) {
    // The rest of the body is not wanted: stop the client sending it.
    whole.catch(() => {});
    request.body?.cancel().catch(() => {});
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (buffer.byteLength > maxBytes) throw new BodyTooLarge(maxBytes);
  return new Uint8Array(buffer);
}

/**
 * Reads a request body (or a fetched response's) as bytes, stopping as soon as it passes `maxBytes` (a declared length is
 * refused up front, a streamed body is cancelled once too much has arrived) or when it is still
 * arriving after `deadlineMs`: a body sent a byte at a time cannot hold the request open.
 */
export async function readLimited(
  request: Pick<Request, "headers" | "body">,
  limits: BodyLimits,
): Promise<Uint8Array> {
  const { maxBytes, deadlineMs } = limits;
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > maxBytes) {
    // Not a byte of it is wanted (a fetched response's body would otherwise stay open).
    request.body?.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array();

  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    if (deadlineMs > 0) timer = setTimeout(() => reject(new BodyTooSlow(deadlineMs)), deadlineMs);
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new BodyTooLarge(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    // The rest of the body is not wanted: stop the client sending it.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
