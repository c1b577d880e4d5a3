import { ToolCallTasksSchema, type TaskMetadata } from "../protocol/legacy-tasks.ts";
import { CallToolResultSchema, type CallToolResult } from "../protocol/results.ts";
import type { Task } from "../protocol/tasks.ts";
import type { ClientCore } from "./core.ts";
import { listTools } from "./lists.ts";
import { withInputRounds } from "./operations.ts";
import type { CallToolOptions } from "./options.ts";
import { parseComplete } from "./parse.ts";

/** A tool call's arguments, validated by the server against the tool's input schema. */
export type ToolArguments = Record<string, unknown>;

/** How a call ended: with a result, or with a task the server runs on. */
export type ToolOutcome = { type: "result"; result: CallToolResult } | { type: "task"; task: Task };

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

/** The `task` param a call carries, if it runs as a 2025-11-25 task (see `asTask`). */
async function taskParam(
  core: ClientCore,
  name: string,
  options: CallToolOptions,
): Promise<{ task?: TaskMetadata }> {
  const serverTasks = ToolCallTasksSchema.safeParse(core.description.capabilities).success;
  const support = async () => {
    if (core.tools.taskSupport(name) === undefined && !core.tools.supportComplete)
      await listTools(core, options.signal ? { signal: options.signal } : {});
    return core.tools.taskSupport(name);
  };
  const metadata = await core.era.tasks.metadata(
    { name, support, serverTasks },
    options.asTask,
    core.context("tools/call"),
  );
  if (!metadata) return {};
  return { task: options.taskTtlMs === undefined ? metadata : { ttl: options.taskTtlMs } };
}

async function callOnce(
  core: ClientCore,
  name: string,
  args: ToolArguments | undefined,
  options: CallToolOptions,
  params: Record<string, string>,
): Promise<ToolOutcome> {
  const context = core.context("tools/call");
  const base = {
    name,
    ...(args === undefined ? {} : { arguments: args }),
    ...(await taskParam(core, name, options)),
  };
  const { result } = await withInputRounds(core, "tools/call", base, options, params);
  const task = core.era.tasks.created(result, context);
  return task
    ? { type: "task", task }
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
