import { ErrorCode } from "../../protocol/errors.ts";
import { InputRequestSchema } from "../../protocol/input-requests.ts";
import type { JsonObject } from "../../protocol/messages.ts";
import type { Connection } from "../connection.ts";
import { McpError } from "../errors.ts";
import { exchange, notify } from "../exchange.ts";
import { answerInputRequest } from "../input.ts";
import type { ServerRequest } from "../read-reply.ts";
import { getStream, post, postHeaders } from "../transport.ts";
import type { ClientEra } from "./era.ts";
import { legacyTasks } from "./legacy-tasks.ts";
import { BackgroundStream } from "../background/background.ts";

const INPUT_METHODS: readonly string[] = [
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
];

type Answer = { result: JsonObject } | { error: { code: number; message: string } };

async function answerOf(
  conn: Connection,
  request: ServerRequest,
  signal: AbortSignal,
): Promise<Answer> {
  if (request.method === "ping") return { result: {} };
  const parsed = InputRequestSchema.safeParse({
    method: request.method,
    ...(request.params ? { params: request.params } : {}),
  });
  if (!parsed.success) {
    const known = INPUT_METHODS.includes(request.method);
    const code = known ? ErrorCode.InvalidParams : ErrorCode.MethodNotFound;
    const message = known
      ? `Invalid ${request.method} params`
      : `Unsupported request ${request.method}`;
    return { error: { code, message } };
  }
  try {
    const key = String(request.id);
    return {
      result: await answerInputRequest(conn.handlers, parsed.data, { key, signal }, "legacy"),
    };
  } catch (error) {
    const message = error instanceof McpError ? error.message : "The client could not answer.";
    return { error: { code: ErrorCode.InternalError, message } };
  }
}

/**
 * Answers a request a 2025 server sent on a response stream (it waits for the answer before
 * going on) by POSTing the JSON-RPC response back to the same session.
 */
async function answerServerRequest(
  conn: Connection,
  request: ServerRequest,
  signal: AbortSignal,
): Promise<void> {
  const answer = await answerOf(conn, request, signal);
  const context = { era: "legacy" as const, method: request.method };
  const body = { jsonrpc: "2.0", id: request.id, ...answer };
  const response = await post(conn, body, postHeaders(conn), signal, context);
  await response.body?.cancel();
}

/**
 * The 2025 era, after `initialize`: requests carry only the caller's `_meta` and the session's
 * headers; the server may ask for input on a response stream, and is told of cancellations.
 */
export const legacy: ClientEra = {
  name: "legacy",
  traits: { label: "2025 handshake", handshake: true, listen: false },
  envelope(_conn, params, extras) {
    const meta = {
      ...extras.meta,
      ...(extras.progressToken === undefined ? {} : { progressToken: extras.progressToken }),
    };
    return Object.keys(meta).length === 0 ? params : { ...params, _meta: meta };
  },
  headers(conn) {
    return postHeaders(conn);
  },
  serverRequest: answerServerRequest,
  reopen(conn, lastEventId, signal, context) {
    const headers = conn.sessionHeaders();
    headers.set("Last-Event-ID", lastEventId);
    return getStream(conn, headers, signal, context);
  },
  async aborted(conn, id, method) {
    if (method === "initialize") return;
    await notify(conn, legacy, "notifications/cancelled", {
      requestId: id,
      reason: "aborted",
    }).catch(() => {});
  },
  // The level is set once per session, and only on a server that offers logging.
  async setLogLevel(conn, level, serverLogs, signal) {
    if (level === conn.sessionLogLevel || !serverLogs) return;
    await exchange(conn, legacy, {
      method: "logging/setLevel",
      params: { level },
      ...(signal ? { signal } : {}),
    });
    conn.sessionLogLevel = level;
  },
  require2026(message, context) {
    throw new McpError(message, { kind: "client", ...context });
  },
  // 2025 servers describe themselves in `initialize` only.
  async discover(_fetch, known) {
    return { result: known, source: "cache" };
  },
  async paramHeaders() {
    return {};
  },
  listedTools(reply) {
    return reply;
  },
  staleTools() {
    return false;
  },
  tasks: legacyTasks,
  background: (conn, sink) => new BackgroundStream(conn, answerServerRequest, sink),
  require2025() {},
};
