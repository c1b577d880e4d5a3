import { ErrorCode } from "../protocol/errors.ts";
import { paramHeaderValues } from "../protocol/header-declarations.ts";
import { CallToolResultSchema, type CallToolResult } from "../protocol/results.ts";
import { CreateTaskResultSchema, type CreateTaskResult } from "../protocol/tasks.ts";
import type { ClientCore } from "./core.ts";
import { hasRpcCode } from "./errors.ts";
import { listTools } from "./lists.ts";
import { withInputRounds } from "./operations.ts";
import type { CallToolOptions } from "./options.ts";
import { parseComplete, parseResult, resultTypeOf } from "./parse.ts";

/** A tool call's arguments, validated by the server against the tool's input schema. */
export type ToolArguments = Record<string, unknown>;

/** How a call ended: with a result, or with a task the server runs on. */
export type ToolOutcome =
  { type: "result"; result: CallToolResult } | { type: "task"; task: CreateTaskResult };

/**
 * The `Mcp-Param-*` headers of a call, from the tool's `x-mcp-header` declarations. Unknown
 * tools make the client fetch the tool list first (once, until the list changes).
 */
export async function paramHeaders(
  core: ClientCore,
  name: string,
  args: ToolArguments,
  options: CallToolOptions,
): Promise<Record<string, string>> {
  if (core.conn.era === "legacy") return {};
  let params = core.tools.headerParams(name);
  if (params === undefined && !core.tools.complete) {
    await listTools(core, options.signal ? { signal: options.signal } : {});
    params = core.tools.headerParams(name);
  }
  return params ? paramHeaderValues(params, args) : {};
}

async function callOnce(
  core: ClientCore,
  name: string,
  args: ToolArguments | undefined,
  options: CallToolOptions,
  params: Record<string, string>,
): Promise<ToolOutcome> {
  const context = core.context("tools/call");
  const base = { name, ...(args === undefined ? {} : { arguments: args }) };
  const { result } = await withInputRounds(core, "tools/call", base, options, params);
  return resultTypeOf(result) === "task"
    ? { type: "task", task: parseResult(CreateTaskResultSchema, result, context) }
    : { type: "result", result: parseComplete(CallToolResultSchema, result, context) };
}

/**
 * Calls a tool through its input rounds. A -32020 (header mismatch) means the cached tool
 * definition is stale: the client refreshes the list and calls once more.
 */
export async function startToolCall(
  core: ClientCore,
  name: string,
  args: ToolArguments | undefined,
  options: CallToolOptions,
): Promise<ToolOutcome> {
  try {
    return await callOnce(
      core,
      name,
      args,
      options,
      await paramHeaders(core, name, args ?? {}, options),
    );
  } catch (error) {
    if (core.conn.era === "legacy" || !hasRpcCode(error, ErrorCode.HeaderMismatch)) throw error;
    core.tools.reset();
    await listTools(core, {
      cache: "refresh",
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return callOnce(core, name, args, options, await paramHeaders(core, name, args ?? {}, options));
  }
}
