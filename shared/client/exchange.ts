import { linkedController } from "../abortable.ts";
import type { JsonObject } from "../protocol/messages.ts";
import type { Connection } from "./connection.ts";
import { McpError } from "./errors.ts";
import { withEnvelope } from "./envelope.ts";
import { answerServerRequest } from "./legacy-requests.ts";
import type { RequestOptions } from "./options.ts";
import { readReply } from "./read-reply.ts";
import { mirroredName, requestHeaders } from "./request-headers.ts";
import { abortError, post, type ErrorContext } from "./transport.ts";

/** One request to send: method, params (without `_meta`) and how to follow its reply. */
export type OutgoingRequest = RequestOptions & {
  method: string;
  params: JsonObject;
  /** `Mcp-Param-*` values by header suffix, already encoded. */
  paramHeaders?: Readonly<Record<string, string>>;
  /** Sees the reply's headers (the legacy handshake reads its session id there). */
  onHeaders?: (headers: Headers) => void;
};

/**
 * One request and its reply: a fresh id, the `_meta` envelope, the routing headers, then the
 * JSON or SSE reply. Aborting closes the stream, which is the 2026 cancellation; 2025 servers
 * are also sent `notifications/cancelled`.
 */
export async function exchange(conn: Connection, request: OutgoingRequest): Promise<JsonObject> {
  const context: ErrorContext = { era: conn.era, method: request.method };
  const id = conn.nextId();
  const progressToken = request.onProgress ? id : undefined;
  const body = {
    jsonrpc: "2.0",
    id,
    method: request.method,
    params: withEnvelope(conn, request.params, {
      ...(progressToken === undefined ? {} : { progressToken }),
      ...(request.logLevel === undefined ? {} : { logLevel: request.logLevel }),
      ...(request.meta === undefined ? {} : { meta: request.meta }),
    }),
  };
  const name = mirroredName(request.method, request.params);
  const headers = requestHeaders(conn, {
    method: request.method,
    ...(name === undefined ? {} : { name }),
    ...(request.paramHeaders ? { params: request.paramHeaders } : {}),
  });
  // The request owns its controller, so abort reaches the fetch and ends the stream.
  const { controller, unlink } = linkedController(request.signal);
  try {
    const response = await post(conn, body, headers, controller.signal, context);
    request.onHeaders?.(response.headers);
    return await readReply(
      response,
      {
        id,
        ...(progressToken === undefined ? {} : { progressToken }),
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        ...(request.onLog ? { onLog: request.onLog } : {}),
        ...(conn.era === "legacy"
          ? {
              onRequest: (serverRequest) =>
                answerServerRequest(conn, serverRequest, controller.signal),
            }
          : {}),
        onMessage: (message) => conn.onWire?.({ type: "message", url: conn.url, message }),
      },
      context,
    );
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    if (conn.era === "legacy" && request.method !== "initialize") {
      await notify(conn, "notifications/cancelled", { requestId: id, reason: "aborted" }).catch(
        () => {},
      );
    }
    throw error instanceof McpError && error.kind === "aborted"
      ? error
      : abortError(controller.signal, context);
  } finally {
    unlink();
    controller.abort();
  }
}

/** POSTs a notification (no id, no reply body); the server answers 202. */
export async function notify(conn: Connection, method: string, params: JsonObject): Promise<void> {
  const context: ErrorContext = { era: conn.era, method };
  const body = { jsonrpc: "2.0", method, params: withEnvelope(conn, params, {}) };
  const response = await post(conn, body, requestHeaders(conn, {}), undefined, context);
  await response.body?.cancel();
  if (!response.ok) {
    throw new McpError(`The server refused ${method} with HTTP ${response.status}.`, {
      kind: "http",
      status: response.status,
      ...context,
    });
  }
}
