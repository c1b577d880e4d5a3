import { HttpError } from "./http-error.ts";

/** The body was larger than the configured limit (413). */
export class BodyTooLarge extends HttpError {
  constructor(readonly limit: number) {
    super(413, `The request body exceeds the ${limit}-byte limit. Send a smaller request.`);
  }
}

/**
 * Reads a request body as bytes, stopping as soon as it passes `limit`: a declared length is
 * refused up front, and a streamed body is cancelled once too much has arrived.
 */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) throw new BodyTooLarge(limit);
  if (!request.body) return new Uint8Array();
  // A declared length within the limit frames the body: the runtime delivers no more than it.
  if (declared !== null && /^\d+$/.test(declared))
    return new Uint8Array(await request.arrayBuffer());

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
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
