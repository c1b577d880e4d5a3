import type { JsonObject } from "../protocol/messages.ts";
import type { Connection } from "./connection.ts";
import { abortError, McpError, type ErrorContext } from "./errors.ts";
import { fetchFailureText } from "../error-text.ts";
import type { InProcessReply } from "./options.ts";

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
    throw unreachable(conn, error, signal, context);
  }
  conn.onWire?.({
    type: "response",
    url: conn.url,
    status: response.status,
    headers: response.headers,
  });
  return response;
}

/**
 * Opens a 2025 session's SSE stream with GET: its own stream, or (with `Last-Event-ID` among
 * `headers`) a dropped one resumed. Only a missing HTTP reply fails here.
 */
export async function getStream(
  conn: Connection,
  headers: Headers,
  signal: AbortSignal | undefined,
  context: ErrorContext,
): Promise<Response> {
  headers.set("Accept", "text/event-stream");
  conn.onWire?.({ type: "request", url: conn.url, headers, body: undefined });
  let response: Response;
  try {
    response = await conn.fetch(conn.url, {
      method: "GET",
      headers,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw unreachable(conn, error, signal, context);
  }
  conn.onWire?.({
    type: "response",
    url: conn.url,
    status: response.status,
    headers: response.headers,
  });
  return response;
}

/**
 * Sends one JSON-RPC request: given to the connection's `send` when it has one (an endpoint in
 * this process), else POSTed. Only a missing reply fails here, statuses are the reader's.
 */
export async function deliver(
  conn: Connection,
  message: JsonObject,
  headers: Headers,
  signal: AbortSignal,
  context: ErrorContext,
): Promise<Response | InProcessReply> {
  const { send } = conn;
  if (!send) return post(conn, message, headers, signal, context);
  conn.onWire?.({ type: "request", url: conn.url, headers, body: message });
  let reply: Response | InProcessReply;
  try {
    reply = await send(message, headers, signal);
  } catch (error) {
    throw unreachable(conn, error, signal, context);
  }
  conn.onWire?.({
    type: "response",
    url: conn.url,
    status: reply.status,
    headers: headersOf(reply),
  });
  return reply;
}

/** A reply's headers, as a response has them. */
export function headersOf(reply: Response | InProcessReply): Headers {
  return reply instanceof Response ? reply.headers : new Headers(reply.headers);
}

/** Why a request got no reply at all: aborted, or the endpoint could not be reached. */
function unreachable(
  conn: Connection,
  error: unknown,
  signal: AbortSignal | undefined,
  context: ErrorContext,
): McpError {
  if (signal?.aborted) return abortError(signal, context);
  // A fetch that signs in (edgemcp/client/auth) fails with its own error, which names the rule.
  if (error instanceof McpError && error.kind === "auth") return error;
  return new McpError(`Could not reach ${conn.url}: ${fetchFailureText(error)}`, {
    kind: "network",
    cause: error,
    ...context,
  });
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
