import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import type { JsonRpcId } from "../../../shared/protocol/messages.ts";
import { HttpError } from "../../http/http-error.ts";
import type { EraAdapter } from "../era/era.ts";
import type { Observation } from "../observe/trace.ts";
import type { Outcome } from "./reply.ts";

/**
 * The one place a failure becomes a reply. An HTTP refusal keeps its status and headers, with
 * a JSON-RPC error body whose id is null (decided before the id was read); a protocol fault keeps its message, with the status its era
 * gives it; anything else is a bug, answered as -32603 without details but with the request's
 * correlation id, the details going to the request's log line (or the console, before there is
 * one).
 */
export function failure(
  error: unknown,
  id?: JsonRpcId,
  era?: EraAdapter,
  observation?: Observation,
): Outcome {
  if (error instanceof HttpError) {
    const body = { code: ErrorCode.InvalidRequest, message: error.message };
    return {
      message: { jsonrpc: "2.0", id: id ?? null, error: body },
      status: error.status,
      headers: error.headers,
      error: body,
    };
  }
  let rpc: RpcError;
  if (error instanceof RpcError) {
    rpc = error;
  } else if (observation) {
    observation.fault = error;
    const correlationId = observation.correlationId;
    rpc = new RpcError(
      ErrorCode.InternalError,
      `Internal error: the server failed while handling this request (correlation id ${correlationId}).`,
      { correlationId },
    );
  } else {
    console.error("Unexpected error while serving an MCP request", error);
    rpc = new RpcError(
      ErrorCode.InternalError,
      "Internal error: the server failed while handling this request.",
    );
  }
  // Before the era is known, only framing faults (malformed messages) and bugs can happen.
  const malformed = rpc.code === ErrorCode.ParseError || rpc.code === ErrorCode.InvalidRequest;
  const status = era ? era.status(rpc) : (rpc.httpStatus ?? (malformed ? 400 : 500));
  const body = {
    code: rpc.code,
    message: rpc.message,
    ...(rpc.data === undefined ? {} : { data: rpc.data }),
  };
  // Without a known id it is null, as JSON-RPC 2.0 requires: a client whose reader insists on
  // the member (the Python SDK's) would otherwise lose the message to a generic error.
  return {
    message: { jsonrpc: "2.0", id: id ?? null, error: body },
    status,
    error: body,
  };
}
