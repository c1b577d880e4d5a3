import type { CallToolResult } from "../../protocol/results.ts";
import type { Task } from "../../protocol/tasks.ts";
import type { ClientCore } from "../core.ts";
import { McpError } from "../errors.ts";
import { pause } from "../input.ts";
import type { RequestOptions } from "../options.ts";
import { cancelTask, getTask, sender } from "./tasks.ts";

// Used when a task does not say how often to poll.
const DEFAULT_POLL_MS = 1000;
// A server asking for a faster poll than this is polled at this pace.
const MIN_POLL_MS = 50;

/** How to wait for a task: the signal (abort cancels the task) and a status observer. */
export type AwaitTaskOptions = Pick<RequestOptions, "signal" | "meta"> & {
  /** Sees every state the task is polled in, first to last. */
  onStatus?: (task: Task) => void;
};

/**
 * Polls a task until it ends, at the interval it asks for, answering its input requests
 * through the handlers the way its era does; then returns the tool's result. Aborting stops
 * polling and cancels the task.
 */
export async function awaitTask(
  core: ClientCore,
  task: Task,
  options: AwaitTaskOptions,
): Promise<CallToolResult> {
  const { taskId } = task;
  const request = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.meta ? { meta: options.meta } : {}),
  };
  const run = core.era.tasks.run(sender(core), {
    handlers: core.conn.handlers,
    era: core.era.name,
    request,
  });
  let current = task;
  try {
    for (;;) {
      options.onStatus?.(current);
      if (current.status === "completed" || current.status === "failed")
        return await run.result(current);
      if (current.status === "cancelled") {
        throw new McpError(`Task ${taskId} was cancelled.`, {
          kind: "aborted",
          data: { taskId, statusMessage: current.statusMessage },
          ...core.context("tasks/get"),
        });
      }
      if (current.status === "input_required") await run.input(current);
      const interval = Math.max(current.pollIntervalMs ?? DEFAULT_POLL_MS, MIN_POLL_MS);
      await pause(interval, options.signal, core.context("tasks/get"));
      current = await getTask(core, taskId, request);
    }
  } catch (error) {
    if (options.signal?.aborted) await cancelTask(core, taskId, {}).catch(() => {});
    throw error;
  }
}
