/** A body larger than its reader's bound: what came past the bound was cancelled, not read. */
export class OversizedBodyError extends Error {
  override readonly name = "OversizedBodyError";

  constructor(readonly limit: number) {
    super(`The body is larger than ${limit} bytes.`);
  }
}

/**
 * A response's whole body as bytes, or an `OversizedBodyError` once it passes `limit` bytes (or
 * declares more in Content-Length): the rest is cancelled, so a server that streams without end
 * neither fills memory nor holds the caller. Every bounded read of a body goes through here.
 */
export async function readBytesWithin(
  response: Response,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get("Content-Length") ?? "0");
  if (declared > limit) {
    // Not awaited, here and below: a server that never ends must not hold the caller through
    // its cancel either.
    response.body?.cancel().catch(() => undefined);
    throw new OversizedBodyError(limit);
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      throw new OversizedBodyError(limit);
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/** `chunks` as one new array of `size` bytes (their total). */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/** A response's whole body as UTF-8 text, read as `readBytesWithin` reads it. */
export async function readTextWithin(response: Response, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBytesWithin(response, limit));
}

/** A response's body parsed as JSON, read as `readBytesWithin` reads it. */
export async function readJsonWithin(response: Response, limit: number): Promise<unknown> {
  return JSON.parse(await readTextWithin(response, limit)) as unknown;
}
