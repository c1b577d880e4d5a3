import type { JsonObject } from "../protocol/messages.ts";
import { ErrorCode } from "../protocol/errors.ts";
import { InputRequestSchema } from "../protocol/input-requests.ts";
import type { Connection } from "./connection.ts";
import { McpError } from "./errors.ts";
import { answerInputRequest } from "./fulfil.ts";
import type { ServerRequest } from "./read-reply.ts";
import { requestHeaders } from "./request-headers.ts";
import { post } from "./transport.ts";

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
export async function answerServerRequest(
  conn: Connection,
  request: ServerRequest,
  signal: AbortSignal,
): Promise<void> {
  const answer = await answerOf(conn, request, signal);
  const context = { era: conn.era, method: request.method };
  const response = await post(
    conn,
    { jsonrpc: "2.0", id: request.id, ...answer },
    requestHeaders(conn, {}),
    signal,
    context,
  );
  await response.body?.cancel();
}
