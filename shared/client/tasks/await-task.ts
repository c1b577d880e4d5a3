import { CallToolResultSchema, type CallToolResult } from "../../protocol/results.ts";
import type { Task } from "../../protocol/tasks.ts";
import type { ClientCore } from "../core.ts";
import { McpError } from "../errors.ts";
import { answerInputRequests, pause } from "../input.ts";
import type { RequestOptions } from "../options.ts";
import { parseResult } from "../parse.ts";
import { cancelTask, getTask, updateTask } from "./tasks.ts";

// Used when a task does not say how often to poll.
const DEFAULT_POLL_MS = 1000;

/** How to wait for a task: the signal (abort cancels the task) and a status observer. */
export type AwaitTaskOptions = Pick<RequestOptions, "signal" | "meta"> & {
  /** Sees every state the task is polled in, first to last. */
  onStatus?: (task: Task) => void;
};

function outcomeOf(core: ClientCore, task: Task): CallToolResult | McpError | undefined {
  const context = core.context("tasks/get");
  switch (task.status) {
    case "completed":
      return parseResult(CallToolResultSchema, task.result, context);
    case "failed":
      return new McpError(
        task.error?.message ?? task.statusMessage ?? `Task ${task.taskId} failed.`,
        {
          kind: task.error ? "rpc" : "protocol",
          code: task.error?.code,
          data: task.error?.data ?? { taskId: task.taskId },
          ...context,
        },
      );
    case "cancelled":
      return new McpError(`Task ${task.taskId} was cancelled.`, {
        kind: "aborted",
        data: { taskId: task.taskId, statusMessage: task.statusMessage },
        ...context,
      });
    default:
      return undefined;
  }
}

/**
 * Polls a task until it ends, at the interval it asks for, answering its input requests
 * through the handlers (each key once). Aborting stops polling and cancels the task.
 */
export async function awaitTask(
  core: ClientCore,
  task: Task,
  options: AwaitTaskOptions,
): Promise<CallToolResult> {
  const answered = new Set<string>();
  const { taskId } = task;
  const request = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.meta ? { meta: options.meta } : {}),
  };
  let current = task;
  try {
    for (;;) {
      options.onStatus?.(current);
      const outcome = outcomeOf(core, current);
      if (outcome instanceof McpError) throw outcome;
      if (outcome) return outcome;
      const pending = Object.entries(current.inputRequests ?? {}).filter(
        ([key]) => !answered.has(key),
      );
      if (current.status === "input_required" && pending.length > 0) {
        const responses = await answerInputRequests(
          core.conn.handlers,
          Object.fromEntries(pending),
          options.signal,
          core.era.name,
        );
        await updateTask(core, taskId, responses, request);
        for (const [key] of pending) answered.add(key);
      }
      await pause(
        current.pollIntervalMs ?? DEFAULT_POLL_MS,
        options.signal,
        core.context("tasks/get"),
      );
      current = await getTask(core, taskId, request);
    }
  } catch (error) {
    if (options.signal?.aborted) await cancelTask(core, taskId, {}).catch(() => {});
    throw error;
  }
}
