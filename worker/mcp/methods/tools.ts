import * as z from "zod/mini";
import { toolFilter } from "../../auth/admit.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import { ErrorCode, RpcError, ToolError } from "../../../shared/protocol/errors.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { CompiledTool } from "../catalog/catalog.ts";
import { listOf, type List } from "../catalog/list.ts";
import type { HandlerContext } from "../context/context.ts";
import { InputRequiredSignal } from "../input/signal.ts";
import type { Observation } from "../observe/trace.ts";
import type { Call, MethodHandler } from "./method.ts";
import { checkedParams, type CallToolParams } from "./params.ts";
import { describeIssues } from "../schema/issues.ts";
import { missingCapabilities, TASKS_REQUIRED } from "../input/requirements.ts";
import { shapeToolResult, toolFailure } from "../results/tool.ts";

export const listTools: MethodHandler = (call) => {
  const { cursor } = call.params;
  const given =
    cursor === undefined || typeof cursor === "string"
      ? cursor
      : checkedParams("list", call.params, call.ctx.request.method).cursor;
  const mayCall = toolFilter(call.access, call.ctx.caller, call.catalog);
  const list = mayCall
    ? callableTools(call.catalog.lists.tools, mayCall)
    : call.catalog.lists.tools;
  return call.era.page(list, given, call.seals);
};
/** A tool call's params; the full check runs only for params of an unusual shape (and their errors). */
function callParams(call: Call): CallToolParams {
  const { name, arguments: args, inputResponses, requestState } = call.params;
  if (
    typeof name === "string" &&
    (args === undefined || isJsonObject(args)) &&
    (inputResponses === undefined || isJsonObject(inputResponses)) &&
    (requestState === undefined || typeof requestState === "string")
  )
    return { name, arguments: args, inputResponses, requestState };
  return checkedParams("call", call.params, call.ctx.request.method);
}

/** Each full list's filtered versions, by the names they keep (few: one per kind of caller). */
const filtered = new WeakMap<List, Map<string, List>>();

/**
 * The tools a caller may call: a list of its own, cached privately (another caller may see
 * other tools), whose cursors are refused by the full list and the other way round.
 */
function callableTools(list: List, mayCall: (tool: string) => boolean): List {
  const items = list.items.filter((item) => mayCall(String(Reflect.get(item, "name"))));
  const key = items.map((item) => String(Reflect.get(item, "name"))).join("\n");
  let versions = filtered.get(list);
  if (!versions) filtered.set(list, (versions = new Map()));
  let view = versions.get(key);
  if (!view) {
    const cache = { ttlMs: list.cache.ttlMs, cacheScope: "private" as const };
    view = listOf(list.key, items, list.pageSize, cache, list.serverInfo);
    if (versions.size >= 32) versions.delete(versions.keys().next().value ?? "");
    versions.set(key, view);
  }
  return view;
}

export const callTool: MethodHandler = async (call) => {
  const params = callParams(call);
  const tool = call.catalog.tools.get(params.name);
  if (!tool) {
    // A name the server knows it cannot serve right now (a hub's upstream that is down).
    const unavailable = call.catalog.definition.unlisted?.("tool", params.name);
    if (unavailable) return { content: [{ type: "text", text: unavailable }], isError: true };
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Unknown tool "${params.name}". Call tools/list to see the tools this server offers.`,
      { name: params.name },
    );
  }
  const { request } = call.ctx;
  const { requires, task } = tool.definition;
  if (requires) call.era.requireCapabilities(requires, request, `Tool "${tool.wire.name}"`);
  if (task?.mode === "required") {
    const what = `Tool "${tool.wire.name}" (it runs as a task)`;
    call.era.requireCapabilities(TASKS_REQUIRED, request, what);
  }
  // The arguments as the tool's input schema parses them (the given ones without a schema).
  let args = params.arguments ?? {};
  const { input } = tool.definition;
  if (input) {
    const parsed = z.safeParse(input, args);
    // SEP-1303: the model must read what is wrong with its arguments to correct them, field by
    // field (`arguments.a: Invalid input: expected number, received string`). The error does
    // not name the tool, so a proxy can pass it on under another name unchanged.
    if (!parsed.success) {
      if (call.observation) call.observation.toolError = true;
      const text = `Invalid arguments: ${describeIssues(parsed.error, "arguments", args)}. Call the tool again with arguments that match its inputSchema.`;
      return { content: [{ type: "text", text }], isError: true };
    }
    if (isJsonObject(parsed.data)) args = parsed.data;
  }
  if (task) return asTask(call, tool, task, params, args);
  return executeTool(tool, args, call.ctx, call.observation);
};

/**
 * A call of a tool that may run as a task: a task for clients that declared the extension (and
 * a server that can run tasks), else a plain call, if the tool allows one.
 */
function asTask(
  call: Call,
  tool: CompiledTool,
  task: NonNullable<CompiledTool["definition"]["task"]>,
  params: CallToolParams,
  args: JsonObject,
): Promise<JsonObject> | JsonObject {
  const { request } = call.ctx;
  if (
    call.tasks &&
    !missingCapabilities(TASKS_REQUIRED, request.clientCapabilities) &&
    !params.requestState &&
    !params.inputResponses
  ) {
    const { ttlMs, pollIntervalMs } = task;
    return call.tasks.create({
      tool: tool.wire.name,
      args,
      capabilities: request.clientCapabilities,
      ...(ttlMs === undefined ? {} : { ttlMs }),
      ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    });
  }
  if (task.mode === "required") {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Tool "${tool.wire.name}" runs only as a task, which this server cannot run right now.`,
    );
  }
  return executeTool(tool, args, call.ctx, call.observation);
}

/**
 * Runs a tool with validated arguments and shapes its result. The tool's own failures become
 * `isError` results (a plain exception's details go to the log, not to the model); protocol
 * faults and requests for client input propagate.
 */
export async function executeTool(
  tool: CompiledTool,
  args: JsonObject,
  ctx: HandlerContext,
  observation?: Observation,
): Promise<JsonObject> {
  let value: unknown;
  try {
    value = await tool.definition.run(args, ctx);
  } catch (error) {
    if (error instanceof RpcError || error instanceof InputRequiredSignal) throw error;
    if (observation) observation.toolError = true;
    // A tool stopped by its signal (the client left, or cancelled) is not a bug to log.
    if (!(error instanceof ToolError) && !ctx.signal.aborted) {
      if (observation) observation.fault = error;
      else
        console.error(
          `Tool "${tool.wire.name}" threw (correlation id ${ctx.request.correlationId})`,
          error,
        );
    }
    return toolFailure(tool.wire.name, error, ctx.request.correlationId);
  }
  return shapeToolResult(tool.wire.name, tool.definition.output, value);
}
