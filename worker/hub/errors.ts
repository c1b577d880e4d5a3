import { McpError } from "../../shared/client/index.ts";
import { errorText } from "../../shared/error-text.ts";
import { publicReason } from "../../shared/hub/reason.ts";
import { ErrorCode, RpcError, ToolError } from "../../shared/protocol/errors.ts";
import { InputRequiredSignal } from "../mcp/index.ts";

/** A tool or prompt the hub's client knows under another name than its upstream does. */
export type Alias = { kind: "tool" | "prompt"; original: string; exposed: string };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Rewrites an upstream's mention of its own name for a tool or prompt (`tool "add"`,
 * `Tool add not found`) to the name the hub's client called, so the message makes sense to it.
 */
export function renameIn(message: string, alias: Alias): string {
  const pattern = new RegExp(
    `(${alias.kind}\\s+)("?)${escapeRegExp(alias.original)}\\2(?![\\w.-])`,
    "gi",
  );
  return message.replace(
    pattern,
    (_match, lead: string, quote: string) => `${lead}${quote}${alias.exposed}${quote}`,
  );
}

/**
 * What the hub tells its client when an upstream fails: the upstream's own JSON-RPC error
 * passes through (naming the tool or prompt as the client knows it); anything else (down, slow,
 * broken reply) names the upstream and the kind of failure, never its URL or reply, as a tool
 * error for tool calls (the model can react) and as -32603 elsewhere.
 */
export function upstreamFailure(
  upstream: string,
  error: unknown,
  forTool: boolean,
  alias?: Alias,
): Error {
  if (error instanceof McpError && error.kind === "rpc" && error.code !== undefined) {
    const message = alias ? renameIn(error.message, alias) : error.message;
    return new RpcError(error.code, message, error.data);
  }
  // The hub's own faults, and its asking its client for input, are not the upstream's.
  if (
    error instanceof RpcError ||
    error instanceof ToolError ||
    error instanceof InputRequiredSignal
  )
    return error;
  // The client learns which upstream failed and how; the log gets the details (URL and all).
  console.warn(`Hub upstream "${upstream}" failed: ${errorText(error)}`);
  const message = `Upstream "${upstream}" is unavailable: ${publicReason(error)}`;
  return forTool
    ? new ToolError(message)
    : new RpcError(ErrorCode.InternalError, message, { upstream });
}
