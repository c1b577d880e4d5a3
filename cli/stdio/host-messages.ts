import { errorText } from "../../shared/error-text.ts";
import { parseMessage, peekId, type JsonRpcMessage } from "../../shared/jsonrpc.ts";
import type { JsonRpcId } from "../../shared/protocol/messages.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { failedReplyLine, readFailedReply } from "../../shared/failed-reply.ts";

/** A JSON-RPC error response for the host. */
export type HostError = {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
};

/** An error response to request `id` (null when the request could not be read). */
export function hostError(id: JsonRpcId | null, code: number, message: string): HostError {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** One line from the host: a JSON-RPC message, nothing (a blank line), or the error to answer. */
export function readHostLine(line: string): JsonRpcMessage | HostError | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return hostError(null, ErrorCode.ParseError, "The bridge received a line that is not JSON.");
  }
  try {
    return parseMessage(value);
  } catch (error) {
    const code = error instanceof RpcError ? error.code : ErrorCode.InvalidRequest;
    return hostError(peekId(value) ?? null, code, errorText(error));
  }
}

/**
 * A failed HTTP reply as the error the host gets: the server's JSON-RPC error with the host's
 * id, or a description of the reply (with what to do about a 401).
 */
export async function refusal(id: JsonRpcId, response: Response, url: string): Promise<HostError> {
  const failure = await readFailedReply(response);
  if (failure.error) return { jsonrpc: "2.0", id, error: failure.error };
  const hint =
    response.status === 401
      ? " The server wants credentials: set EDGEMCP_TOKEN or pass --bearer."
      : "";
  return hostError(
    id,
    ErrorCode.InternalError,
    `${failedReplyLine(failure)} (from ${url}).${hint}`,
  );
}
