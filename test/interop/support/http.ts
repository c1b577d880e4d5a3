import { createServer, type IncomingMessage, type RequestListener } from "node:http";

/** A server listening on a free loopback port. */
export type LoopbackServer = { origin: string; close: () => Promise<void> };

/** Serves a Node request listener on 127.0.0.1, port 0. */
export async function serveNode(listener: RequestListener): Promise<LoopbackServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on a port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The raw body of a Node request. */
export async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, item);
    }
  }
  return headers;
}

/**
 * Serves a fetch-style handler (a `Request` in, a `Response` out) over node:http, streaming the
 * response and aborting the request's signal when the client goes away.
 */
export function serveFetch(
  handler: (request: Request) => Promise<Response>,
): Promise<LoopbackServer> {
  return serveNode(async (req, res) => {
    const body = await bodyOf(req);
    const aborter = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborter.abort();
    });
    const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers: headersOf(req),
      ...(req.method === "GET" || req.method === "HEAD" ? {} : { body: new Uint8Array(body) }),
      signal: aborter.signal,
    });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      try {
        for await (const chunk of response.body) res.write(chunk);
      } catch {
        // The client closed the stream; nothing more to send.
      }
    }
    res.end();
  });
}
