import { serveFetch } from "../interop/support/http.ts";

/** A JSON-RPC message a client POSTed through the proxy. */
export type Posted = { method?: string; id?: unknown; params?: Record<string, unknown> };

/** A proxy on loopback in front of a real server, keeping what the client POSTed to it. */
export type RecordingProxy = {
  /** The proxy's MCP endpoint: the server's path on the proxy's origin. */
  url: string;
  /** Every JSON-RPC message POSTed through, in order. */
  posted: Posted[];
  /** Methods whose POSTs are recorded but never forwarded nor answered (a server that hangs). */
  stall: Set<string>;
  close(): Promise<void>;
};

// Hop-by-hop or recomputed by fetch: not forwarded as they came.
const DROPPED = ["host", "connection", "content-length", "content-encoding", "transfer-encoding"];

/**
 * Forwards every request to `target` unchanged and streams the answer back, so the server sees
 * what the client sent (and a client closing its stream closes the server's); records each
 * POSTed JSON-RPC message on the way.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const posted: Posted[] = [];
  const stall = new Set<string>();
  const server = await serveFetch(async (request) => {
    const body = request.method === "POST" ? await request.text() : undefined;
    const message = body ? (JSON.parse(body) as Posted) : undefined;
    if (message) posted.push(message);
    if (message?.method !== undefined && stall.has(message.method)) {
      return new Promise<Response>(() => {});
    }
    const headers = new Headers(request.headers);
    for (const name of DROPPED) headers.delete(name);
    const { pathname, search } = new URL(request.url);
    const answer = await fetch(new URL(`${pathname}${search}`, upstream), {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: request.signal,
    });
    const back = new Headers(answer.headers);
    for (const name of DROPPED) back.delete(name);
    return new Response(answer.body, { status: answer.status, headers: back });
  });
  return {
    url: `${server.origin}${upstream.pathname}`,
    posted,
    stall,
    close: server.close,
  };
}
