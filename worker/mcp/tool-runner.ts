import * as z from "zod/mini";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import { describeIssues } from "./call.ts";
import type { CompiledTool } from "./catalog.ts";
import type { HandlerContext } from "./context.ts";
import { InputRequiredSignal } from "./input/signal.ts";
import { ToolError } from "../../shared/protocol/errors.ts";
import { shapeToolResult, toolFailure } from "./tool-result.ts";

/** Validates a tool's arguments with its schema, or throws -32602 naming what is wrong. */
export function validateArguments(tool: CompiledTool, args: JsonObject): JsonObject {
  const { input } = tool.definition;
  if (!input) return args;
  const parsed = z.safeParse(input, args);
  if (!parsed.success) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid arguments for tool "${tool.wire.name}": ${describeIssues(parsed.error, "arguments")}`,
    );
  }
  return isJsonObject(parsed.data) ? parsed.data : args;
}

/**
 * Runs a tool with validated arguments and shapes its result. The tool's own failures become
 * `isError` results; protocol faults and requests for client input propagate.
 */
export async function executeTool(
  tool: CompiledTool,
  args: JsonObject,
  ctx: HandlerContext,
): Promise<JsonObject> {
  let value: unknown;
  try {
    value = await tool.definition.run(args, ctx);
  } catch (error) {
    if (error instanceof RpcError || error instanceof InputRequiredSignal) throw error;
    // A tool stopped by its signal (the client left, or cancelled) is not a bug to log.
    if (!(error instanceof ToolError) && !ctx.signal.aborted)
      console.error(`Tool "${tool.wire.name}" threw`, error);

    return toolFailure(tool, error);
  }
  return shapeToolResult(tool, value, ctx.request.era);
}
