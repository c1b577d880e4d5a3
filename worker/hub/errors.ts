import { McpError } from "../../shared/client/index.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { InputRequiredSignal } from "../mcp/input/signal.ts";
import { ToolError } from "../mcp/results.ts";

/**
 * What the hub tells its client when an upstream fails: the upstream's own JSON-RPC error
 * passes through; anything else (down, slow, broken reply) names the upstream, as a tool error
 * for tool calls (the model can react) and as -32603 elsewhere.
 */
export function upstreamFailure(upstream: string, error: unknown, forTool: boolean): Error {
  if (error instanceof McpError && error.kind === "rpc" && error.code !== undefined) {
    return new RpcError(error.code, error.message, error.data);
  }
  // The hub's own faults, and its asking its client for input, are not the upstream's.
  if (
    error instanceof RpcError ||
    error instanceof ToolError ||
    error instanceof InputRequiredSignal
  )
    return error;
  const reason = error instanceof Error ? error.message : String(error);
  const message = `Upstream "${upstream}" is unavailable: ${reason}`;
  return forTool
    ? new ToolError(message)
    : new RpcError(ErrorCode.InternalError, message, { upstream });
}
