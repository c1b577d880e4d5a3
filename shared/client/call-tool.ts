import { CallToolResultSchema, type CallToolResult } from "../protocol/results.ts";
import { CreateTaskResultSchema, type CreateTaskResult } from "../protocol/tasks.ts";
import type { ClientCore } from "./core.ts";
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
 * The `Mcp-Param-*` headers of a call, from the tool's `x-mcp-header` declarations, where the
 * era mirrors arguments (2026). Unknown tools make the client fetch the tool list first (once,
 * until the list changes).
 */
export function paramHeaders(
  core: ClientCore,
  name: string,
  args: ToolArguments,
  options: CallToolOptions,
): Promise<Record<string, string>> {
  return core.era.paramHeaders(async () => {
    const known = core.tools.headerParams(name);
    if (known !== undefined || core.tools.complete) return known;
    await listTools(core, options.signal ? { signal: options.signal } : {});
    return core.tools.headerParams(name);
  }, args);
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
    if (!core.era.staleTools(error)) throw error;
    core.tools.reset();
    await listTools(core, {
      cache: "refresh",
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return callOnce(core, name, args, options, await paramHeaders(core, name, args ?? {}, options));
  }
}
