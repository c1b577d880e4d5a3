import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { ListParamsSchema, CallToolParamsSchema } from "../../../shared/protocol/params.ts";
import { parseParams, type MethodHandler } from "../call.ts";
import { checkParamHeaders } from "../param-headers.ts";
import {
  missingCapabilities,
  requireCapabilities,
  TASKS_REQUIRED,
} from "../required-capabilities.ts";
import { executeTool, validateArguments } from "../tool-runner.ts";

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
  const raw = params.arguments ?? {};
  const { request } = call.ctx;
  const taskMode = tool.definition.task?.mode;
  const wantsTasks = !missingCapabilities(TASKS_REQUIRED, request.clientCapabilities);
  if (request.era === "modern") {
    checkParamHeaders(tool, raw, call.headers);
    const { requires } = tool.definition;
    if (requires)
      requireCapabilities(requires, request.clientCapabilities, `Tool "${tool.wire.name}"`);
    if (taskMode === "required")
      requireCapabilities(
        TASKS_REQUIRED,
        request.clientCapabilities,
        `Tool "${tool.wire.name}" (it runs as a task)`,
      );
  }
  const args = validateArguments(tool, raw);
  // A tool that may run as a task becomes one only for clients that declared the extension.
  if (
    taskMode &&
    wantsTasks &&
    request.era === "modern" &&
    call.tasks &&
    !params.requestState &&
    !params.inputResponses
  ) {
    return call.tasks.create(tool, args, request.clientCapabilities);
  }
  if (taskMode === "required") {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Tool "${tool.wire.name}" runs only as a task, which this server cannot run right now.`,
    );
  }
  return executeTool(tool, args, call.ctx);
};
