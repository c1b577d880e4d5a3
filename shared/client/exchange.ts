import { linkedController } from "../abortable.ts";
import { encodeHeaderValue } from "../protocol/headers.ts";
import type { JsonObject } from "../protocol/messages.ts";
import { NAME_PARAM } from "../protocol/methods.ts";
import type { Connection } from "./connection.ts";
import type { ClientEra } from "./era/era.ts";
import { abortError, McpError, type ErrorContext } from "./errors.ts";
import type { InProcessReply, RequestOptions } from "./options.ts";
import { readReply } from "./read-reply.ts";
import { deliver, headersOf, post } from "./transport.ts";

/** One request to send: method, params (without `_meta`) and how to follow its reply. */
type OutgoingRequest = RequestOptions & {
  method: string;
  params: JsonObject;
  /** `Mcp-Param-*` values by header suffix, already encoded. */
  paramHeaders?: Readonly<Record<string, string>>;
  /** Sees the reply's headers (the legacy handshake reads its session id there). */
  onHeaders?: (headers: Headers) => void;
};

/** The encoded `Mcp-Name` of a request: its tool or prompt name, resource URI or task id. */
function mirroredName(method: string, params: JsonObject): string | undefined {
  const member = NAME_PARAM[method];
  const value = member === undefined ? undefined : params[member];
  return typeof value === "string" ? encodeHeaderValue(value) : undefined;
}

/**
 * One request and its reply in the connection's era: a fresh id, the envelope, the headers,
 * then the JSON or SSE reply. Aborting closes the stream (the 2026 cancellation), and the era
 * follows it up where it must (2025 servers are sent `notifications/cancelled`).
 */
export async function exchange(
  conn: Connection,
  era: ClientEra,
  request: OutgoingRequest,
): Promise<JsonObject> {
  const context: ErrorContext = { era: era.name, method: request.method };
  const id = conn.nextId();
  const progressToken = request.onProgress ? id : undefined;
  const body = {
    jsonrpc: "2.0",
    id,
    method: request.method,
    params: era.envelope(conn, request.params, {
      ...(progressToken === undefined ? {} : { progressToken }),
      ...(request.logLevel === undefined ? {} : { logLevel: request.logLevel }),
      ...(request.meta === undefined ? {} : { meta: request.meta }),
    }),
  };
  const name = mirroredName(request.method, request.params);
  const headers = era.headers(conn, {
    method: request.method,
    ...(name === undefined ? {} : { name }),
    ...(request.paramHeaders ? { params: request.paramHeaders } : {}),
  });
  // The request owns its controller, so abort reaches the fetch and ends the stream.
  const { controller, unlink } = linkedController(request.signal);
  const { serverRequest, reopen } = era;
  let reply: Response | InProcessReply | undefined;
  try {
    reply = await deliver(conn, body, headers, controller.signal, context);
    request.onHeaders?.(headersOf(reply));
    return await readReply(
      reply,
      {
        id,
        maxBytes: conn.maxReplyBytes,
        ...(progressToken === undefined ? {} : { progressToken }),
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        ...(request.onLog ? { onLog: request.onLog } : {}),
        ...(serverRequest
          ? { onRequest: (asked) => serverRequest(conn, asked, controller.signal) }
          : {}),
        onMessage: (message) => conn.onWire?.({ type: "message", url: conn.url, message }),
        ...(reopen
          ? {
              reopen: {
                reopen: (lastEventId, signal) => reopen(conn, lastEventId, signal, context),
                signal: controller.signal,
              },
            }
          : {}),
      },
      context,
    );
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    await era.aborted(conn, id, request.method);
    throw error instanceof McpError && error.kind === "aborted"
      ? error
      : abortError(controller.signal, context);
  } finally {
    unlink();
    // Ends the fetch and its stream; a reply given whole in this isolate left neither
    // (and aborting makes an AbortError and an event per request).
    if (!reply || reply instanceof Response) controller.abort();
  }
}

/** POSTs a notification (no id, no reply body); the server answers 202. */
export async function notify(
  conn: Connection,
  era: ClientEra,
  method: string,
  params: JsonObject,
): Promise<void> {
  const context: ErrorContext = { era: era.name, method };
  const body = { jsonrpc: "2.0", method, params: era.envelope(conn, params, {}) };
  const response = await post(conn, body, era.headers(conn, {}), undefined, context);
  await response.body?.cancel();
  if (!response.ok) {
    throw new McpError(`The server refused ${method} with HTTP ${response.status}.`, {
      kind: "http",
      status: response.status,
      ...context,
    });
  }
}
