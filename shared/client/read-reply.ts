import { errorText } from "../error-text.ts";
import {
  ServerMessageSchema,
  type JsonObject,
  type JsonRpcId,
  type ServerMessage,
} from "../protocol/messages.ts";
import {
  LogMessageParamsSchema,
  ProgressParamsSchema,
  type Progress,
} from "../protocol/notifications.ts";
import { OversizedBodyError, readTextWithin } from "../bounded-body.ts";
import { carriesMessage, decodeSse, SseError } from "../sse.ts";
import { resumableSse, SseResumeError, type Reopen } from "../sse-resume.ts";
import { MAX_REPLY_BYTES } from "./connection.ts";
import { httpFailure, McpError, rpcError, type ErrorContext } from "./errors.ts";
import type { InProcessReply, RequestOptions } from "./options.ts";

/** A request the server sent on a legacy response stream (elicitation, sampling, roots, ping). */
export type ServerRequest = { id: JsonRpcId; method: string; params: JsonObject | undefined };

/** Which response to wait for and where the stream's other messages go. */
type ReplyHandlers = Pick<RequestOptions, "onProgress" | "onLog"> & {
  id: JsonRpcId;
  /** The most a JSON body or one SSE event may weigh (the client's `maxReplyBytes`). */
  maxBytes?: number;
  progressToken?: JsonRpcId;
  onRequest?: (request: ServerRequest) => Promise<void>;
  onMessage?: (message: ServerMessage) => void;
  /**
   * Opens a dropped SSE reply again after its last event id (2025 servers, which may close a
   * reply's stream early and expect the client to resume it); without it an early end fails.
   */
  reopen?: { reopen: Reopen; signal: AbortSignal };
};

/** The media type of a reply without parameters, lowercased. */
export function mediaTypeOf(response: Response): string {
  return (response.headers.get("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** A reply past the client's bound, whose rest was not read: the option that raises it is named. */
function tooLarge(what: string, limit: number, context: ErrorContext, status?: number): McpError {
  const unit =
    limit % MiB === 0 ? ` (${limit / MiB} MiB)` : limit % KiB === 0 ? ` (${limit / KiB} KiB)` : "";
  return new McpError(
    `The ${context.method} ${what} is larger than ${limit} bytes${unit}, so the rest was not read; the client option maxReplyBytes raises this limit.`,
    { kind: "client", data: { maxReplyBytes: limit }, ...(status ? { status } : {}), ...context },
  );
}

/** Parses one JSON text as a server message, or fails as a protocol error. */
function parseServerMessage(text: string, context: ErrorContext): ServerMessage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpError(`The ${context.method} reply is not JSON.`, {
      kind: "protocol",
      cause: error,
      data: { text: text.slice(0, 500) },
      ...context,
    });
  }
  return serverMessageOf(json, context);
}

/** Checks one JSON value as a server message, or fails as a protocol error. */
function serverMessageOf(json: unknown, context: ErrorContext): ServerMessage {
  const plain = plainResult(json);
  if (plain) return plain;
  const parsed = ServerMessageSchema.safeParse(json);
  if (!parsed.success) {
    throw new McpError(`The ${context.method} reply is not a JSON-RPC message.`, {
      kind: "protocol",
      data: { message: json },
      ...context,
    });
  }
  return parsed.data;
}

/**
 * The usual message, a result response with nothing else (`jsonrpc`, a string or finite number
 * id, a plain-object result), checked by hand as the schema would take it: the schema (a union
 * that copies every member of the result) is the dearest part of reading a small reply. Anything
 * else goes to the schema, which also says what is wrong.
 */
function plainResult(json: unknown): ServerMessage | undefined {
  if (typeof json !== "object" || json === null || Object.keys(json).length !== 3) return undefined;
  const { jsonrpc, id, result } = json as Record<string, unknown>;
  if (jsonrpc !== "2.0") return undefined;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) return undefined;
  if (typeof result !== "object" || result === null) return undefined;
  const prototype: unknown = Object.getPrototypeOf(result);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  return { jsonrpc, id, result: result as JsonObject };
}

/**
 * The JSON-RPC messages of an SSE body, each shown to `onMessage` as it arrives; with `reopen`,
 * a stream the server drops after giving event ids is resumed.
 */
export async function* sseMessages(
  body: ReadableStream<Uint8Array>,
  context: ErrorContext,
  maxBytes: number,
  onMessage?: (message: ServerMessage) => void,
  reopen?: ReplyHandlers["reopen"],
): AsyncGenerator<ServerMessage> {
  const events = reopen
    ? resumableSse(body, { ...reopen, maxEventBytes: maxBytes })
    : decodeSse(body, {}, maxBytes);
  try {
    for await (const event of events) {
      if (!carriesMessage(event)) continue;
      const message = parseServerMessage(event.data, context);
      onMessage?.(message);
      yield message;
    }
  } catch (error) {
    if (error instanceof SseError) throw tooLarge("reply's SSE event", error.limit, context);
    if (error instanceof McpError) throw error;
    if (!(error instanceof SseResumeError)) {
      // The connection broke mid-stream (the server's process died, a proxy cut it): what was
      // read came whole, the rest is lost. An abort of the caller's own is reported by its caller.
      throw new McpError(`The ${context.method} stream broke off: ${errorText(error)}`, {
        kind: "network",
        cause: error,
        ...context,
      });
    }
    throw new McpError(`The ${context.method} stream ended before its response. ${error.message}`, {
      kind: "protocol",
      cause: error,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...context,
    });
  }
}

function settle(
  message: ServerMessage,
  handlers: ReplyHandlers,
  status: number,
  context: ErrorContext,
): JsonObject | undefined {
  if ("result" in message) return message.id === handlers.id ? message.result : undefined;
  if ("error" in message) {
    const forUs = message.id === handlers.id || message.id === undefined || message.id === null;
    if (forUs) throw rpcError(message.error, status, context);
  }
  return undefined;
}

function progressOf(params: JsonObject | undefined, token: JsonRpcId): Progress | undefined {
  const parsed = ProgressParamsSchema.safeParse(params);
  if (!parsed.success || String(parsed.data.progressToken) !== String(token)) return undefined;
  const { progressToken: _token, ...progress } = parsed.data;
  return progress;
}

async function dispatch(message: ServerMessage, handlers: ReplyHandlers): Promise<void> {
  if (!("method" in message)) return;
  if ("id" in message) {
    await handlers.onRequest?.({ id: message.id, method: message.method, params: message.params });
    return;
  }
  if (message.method === "notifications/progress" && handlers.progressToken !== undefined) {
    const progress = progressOf(message.params, handlers.progressToken);
    if (progress) handlers.onProgress?.(progress);
  } else if (message.method === "notifications/message") {
    const log = LogMessageParamsSchema.safeParse(message.params);
    if (log.success) handlers.onLog?.(log.data);
  }
}

/**
 * Reads the reply to one request, JSON or SSE (or a whole one given as a value in process), and
 * returns its result. Notifications on the stream go to the callbacks as they arrive; errors,
 * bad replies and early ends throw.
 */
export async function readReply(
  reply: Response | InProcessReply,
  handlers: ReplyHandlers,
  context: ErrorContext,
): Promise<JsonObject> {
  if (!(reply instanceof Response)) return readInProcess(reply, handlers, context);
  const response = reply;
  if (!response.ok) throw await httpFailure(response, context);
  const type = mediaTypeOf(response);
  if (type === "application/json") {
    const message = parseServerMessage(
      await boundedText(response, handlers.maxBytes ?? MAX_REPLY_BYTES, context),
      context,
    );
    handlers.onMessage?.(message);
    const result = settle(message, handlers, response.status, context);
    if (result) return result;
  } else if (type === "text/event-stream" && response.body) {
    const messages = sseMessages(
      response.body,
      context,
      handlers.maxBytes ?? MAX_REPLY_BYTES,
      handlers.onMessage,
      handlers.reopen,
    );
    for await (const message of messages) {
      const result = settle(message, handlers, response.status, context);
      if (result) return result;
      await dispatch(message, handlers);
    }
    throw new McpError(`The ${context.method} stream ended before its response.`, {
      kind: "protocol",
      status: response.status,
      ...context,
    });
  } else {
    await response.body?.cancel();
    throw new McpError(
      `The ${context.method} reply has status ${response.status} and type "${type}", not JSON or SSE.`,
      { kind: "protocol", status: response.status, ...context },
    );
  }
  throw new McpError(`The ${context.method} reply does not answer request ${handlers.id}.`, {
    kind: "protocol",
    status: response.status,
    ...context,
  });
}

/** A JSON reply's body, up to the client's bound. */
async function boundedText(
  response: Response,
  limit: number,
  context: ErrorContext,
): Promise<string> {
  try {
    return await readTextWithin(response, limit);
  } catch (error) {
    if (error instanceof OversizedBodyError)
      throw tooLarge("reply", limit, context, response.status);
    throw error;
  }
}

/** A whole reply given as a value in process: the JSON reply, without its text when it has none. */
async function readInProcess(
  reply: InProcessReply,
  handlers: ReplyHandlers,
  context: ErrorContext,
): Promise<JsonObject> {
  const { status, message } = reply;
  const text = typeof message === "string" ? message : undefined;
  if (status < 200 || status >= 300) {
    const body = text ?? JSON.stringify(message);
    throw await httpFailure(new Response(body, { status, headers: reply.headers }), context);
  }
  const parsed =
    text === undefined ? serverMessageOf(message, context) : parseServerMessage(text, context);
  handlers.onMessage?.(parsed);
  const result = settle(parsed, handlers, status, context);
  if (result) return result;
  throw new McpError(`The ${context.method} reply does not answer request ${handlers.id}.`, {
    kind: "protocol",
    status,
    ...context,
  });
}
