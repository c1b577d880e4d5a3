import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { ListParamsSchema, CallToolParamsSchema } from "../../../shared/protocol/params.ts";
import { describeIssues, parseParams, type MethodHandler } from "../call.ts";
import { ToolError } from "../results.ts";
import { InputRequiredSignal } from "../input/session.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import { checkParamHeaders } from "../param-headers.ts";
import { requireCapabilities } from "../required-capabilities.ts";
import { shapeToolResult, toolFailure } from "../tool-result.ts";

export const listTools: MethodHandler = (call) => {
  const { cursor } = parseParams(ListParamsSchema, call);
  return call.catalog.pages.tools.page(cursor, call.ctx.request.era, call.cursors);
};

export const callTool: MethodHandler = async (call) => {
  const params = parseParams(CallToolParamsSchema, call);
  const tool = call.catalog.tools.get(params.name);
  if (!tool) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Unknown tool "${params.name}". Call tools/list to see the tools this server offers.`,
      {
        name: params.name,
      },
    );
  }
  const args = params.arguments ?? {};
  const { request } = call.ctx;
  if (request.era === "modern") {
    checkParamHeaders(tool, args, call.headers);
    const { requires } = tool.definition;
    if (requires)
      requireCapabilities(requires, request.clientCapabilities, `Tool "${tool.wire.name}"`);
  }
  let parsedArgs = args;
  if (tool.validator) {
    const parsed = tool.validator.safeParse(args);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error, "arguments");
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid arguments for tool "${tool.wire.name}": ${issues}`,
      );
    }
    if (isJsonObject(parsed.data)) parsedArgs = parsed.data;
  }
  let value: unknown;
  try {
    value = await tool.definition.run(parsedArgs, call.ctx);
  } catch (error) {
    // Protocol faults and requests for client input are not the tool's own failure.
    if (error instanceof RpcError || error instanceof InputRequiredSignal) throw error;
    if (!(error instanceof ToolError)) console.error(`Tool "${tool.wire.name}" threw`, error);
    return toolFailure(tool, error);
  }
  return shapeToolResult(tool, value, call.ctx.request.era);
};
