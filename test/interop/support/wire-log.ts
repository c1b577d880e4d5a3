import type { FetchLike } from "@modelcontextprotocol/client";

/** One POST as the client sent it and the status it got back. */
export type WireExchange = {
  headers: Headers;
  /** The parsed JSON-RPC body the client sent. */
  body: unknown;
  status: number;
  /** The `Mcp-Session-Id` the reply set, if any (a 2025 `initialize`'s). */
  sessionId?: string;
  /** The response body, when it was JSON (SSE and empty bodies are left unread). */
  reply?: unknown;
};

/** A fetch for a client transport that records what goes over the wire. */
export function wireLog(): { fetch: FetchLike; exchanges: WireExchange[] } {
  const exchanges: WireExchange[] = [];
  const fetchAndRecord: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (init?.method === "POST") {
      const json = response.headers.get("Content-Type")?.startsWith("application/json");
      const sessionId = response.headers.get("Mcp-Session-Id");
      exchanges.push({
        headers: new Headers(init.headers),
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
        status: response.status,
        ...(sessionId === null ? {} : { sessionId }),
        ...(json ? { reply: await response.clone().json() } : {}),
      });
    }
    return response;
  };
  return { fetch: fetchAndRecord, exchanges };
}

/** The JSON-RPC method of a recorded request, if it was one. */
export function methodOf(exchange: WireExchange): string | undefined {
  const body = exchange.body;
  return typeof body === "object" && body !== null && "method" in body
    ? String(body.method)
    : undefined;
}
