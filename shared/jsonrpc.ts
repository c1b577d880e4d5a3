import { ErrorCode, RpcError } from "./protocol/errors.ts";
import type {
  JsonObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "./protocol/messages.ts";

/** One received JSON-RPC message, classified. */
export type JsonRpcMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidRequest, message);
}

/** The id of a parsed JSON value, when it has a valid one (for answering malformed messages). */
export function peekId(value: unknown): JsonRpcId | undefined {
  const id = isJsonObject(value) ? value.id : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
}

/** Classifies one parsed JSON value as a JSON-RPC 2.0 message, or throws a -32600 RpcError. */
export function parseMessage(value: unknown): JsonRpcMessage {
  if (Array.isArray(value)) {
    throw invalid("Batch requests are not supported: send one JSON-RPC message per POST.");
  }
  if (!isJsonObject(value)) {
    throw invalid("The body must be a JSON-RPC 2.0 object.");
  }
  const id = peekId(value);
  if (value.jsonrpc !== "2.0") throw invalid('The "jsonrpc" member must be exactly "2.0".');
  if ("id" in value && id === undefined) {
    throw invalid('The "id" member must be a string or a number (null is not allowed).');
  }
  if (!("method" in value)) {
    if (id !== undefined && ("result" in value || "error" in value)) {
      return { kind: "response", message: value as JsonRpcResponse };
    }
    throw invalid('The message has no "method" (and is not a response).');
  }
  const { method, params } = value;
  if (typeof method !== "string" || method === "") {
    throw invalid('The "method" member must be a non-empty string.');
  }
  if (params !== undefined && !isJsonObject(params)) {
    throw invalid('The "params" member must be an object when present.');
  }
  const base = { jsonrpc: "2.0" as const, method, ...(params ? { params } : {}) };
  return id === undefined
    ? { kind: "notification", message: base }
    : { kind: "request", message: { ...base, id } };
}
