/** A body larger than its reader's bound: what came past the bound was cancelled, not read. */
export class OversizedBodyError extends Error {
  override readonly name = "OversizedBodyError";

  constructor(readonly limit: number) {
    super(`The body is larger than ${limit} bytes.`);
  }
}

/**
 * A response's whole body as text, or an `OversizedBodyError` once it passes `limit` bytes (or
 * declares more in Content-Length): the rest is cancelled, so a server that streams without end
 * neither fills memory nor holds the caller.
 */
export async function readTextWithin(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("Content-Length") ?? "0");
  if (declared > limit) {
    response.body?.cancel().catch(() => undefined);
    throw new OversizedBodyError(limit);
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      // Not awaited: a server that never ends must not hold the caller through its cancel either.
      reader.cancel().catch(() => undefined);
      throw new OversizedBodyError(limit);
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}
