// The limit of the stack for a given answer: parse the JSON-RPC body as the bare Worker does, then
// answer exactly the bytes edgemcp answered to the same request (taken by the bench before load
// and checked byte for byte). A JSON answer is a fresh copy of the bytes per request: answering
// the same buffer or string each time makes no JavaScript garbage, so nothing collects the copy
// workerd makes for each Response, and a fresh string is garbage V8 does not weigh by that
// copy (with 32 connections of 1 MiB answers the process grew past 3 GiB and stalled at about
// 200 req/s). A fresh ArrayBuffer is memory V8 counts, so it is collected in step.
// An SSE answer is streamed one event per chunk, pre-framed, as a server writes it.
type Env = { ANSWER: ArrayBuffer; HEADERS: string };

let headers: [string, string][] | undefined;
let answer: Uint8Array | undefined;
let events: Uint8Array[] | undefined;

/** The answer cut after each blank line that ends an SSE event. */
function split(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (let i = 1; i < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 10) {
      chunks.push(bytes.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) chunks.push(bytes.slice(start));
  return chunks;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    await request.json();
    headers ??= JSON.parse(env.HEADERS) as [string, string][];
    const type = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
    if (!type.startsWith("text/event-stream")) {
      answer ??= new Uint8Array(env.ANSWER);
      return new Response(answer.slice(), { headers });
    }
    const chunks = (events ??= split(new Uint8Array(env.ANSWER)));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk.slice());
        controller.close();
      },
    });
    return new Response(stream, { headers });
  },
};
