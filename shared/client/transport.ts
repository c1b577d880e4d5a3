import type { Connection } from "./connection.ts";
import { abortError, McpError, type ErrorContext } from "./errors.ts";

/** Headers for one JSON-RPC POST, before its era adds routing: the session's, and the media types. */
export function postHeaders(conn: Connection): Headers {
  const headers = conn.sessionHeaders();
  headers.set("Content-Type", "application/json");
  headers.set("Accept", "application/json, text/event-stream");
  return headers;
}

/** POSTs one JSON-RPC message; only a missing HTTP reply fails here, statuses are the reader's. */
export async function post(
  conn: Connection,
  message: unknown,
  headers: Headers,
  signal: AbortSignal | undefined,
  context: ErrorContext,
): Promise<Response> {
  conn.onWire?.({ type: "request", url: conn.url, headers, body: message });
  let response: Response;
  try {
    response = await conn.fetch(conn.url, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw abortError(signal, context);
    throw new McpError(`Could not reach ${conn.url}: ${String(error)}`, {
      kind: "network",
      cause: error,
      ...context,
    });
  }
  conn.onWire?.({
    type: "response",
    url: conn.url,
    status: response.status,
    headers: response.headers,
  });
  return response;
}

/** Sends DELETE to end a legacy session; servers without sessions may answer 405. */
export async function endSession(conn: Connection, headers: Headers): Promise<void> {
  try {
    const response = await conn.fetch(conn.url, { method: "DELETE", headers });
    await response.body?.cancel();
  } catch {
    // Ending a session is a courtesy; the server expires it anyway.
  }
}
