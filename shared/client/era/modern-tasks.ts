import type { JsonObject } from "../../protocol/messages.ts";
import { CallToolResultSchema, EmptyResultSchema } from "../../protocol/results.ts";
import { CreateTaskResultSchema, GetTaskResultSchema, type Task } from "../../protocol/tasks.ts";
import { McpError, type ErrorContext } from "../errors.ts";
import { answerInputRequests } from "../input.ts";
import { parseResult, resultTypeOf } from "../parse.ts";
import type { TaskProtocol } from "./task-protocol.ts";

const context = (method: string): ErrorContext => ({ era: "modern", method });

/** A failed task as an error: the JSON-RPC error it carries, or its status message. */
function failure(task: Task): McpError {
  return new McpError(task.error?.message ?? task.statusMessage ?? `Task ${task.taskId} failed.`, {
    kind: task.error ? "rpc" : "protocol",
    code: task.error?.code,
    data: task.error?.data ?? { taskId: task.taskId },
    ...context("tasks/get"),
  });
}

/**
 * Tasks in 2026-07-28 (the tasks extension): the server answers a call with a task when it
 * chooses, the task carries its input requests and, once completed, its result.
 */
export const modernTasks: TaskProtocol = {
  // No `task` param: the server decides, for clients that declared the extension.
  async metadata() {
    return undefined;
  },
  created(result, errorContext) {
    if (resultTypeOf(result) !== "task") return undefined;
    return parseResult(CreateTaskResultSchema, result, errorContext);
  },
  async get(send, taskId, options) {
    const raw = await send("tasks/get", { taskId }, options);
    return parseResult(GetTaskResultSchema, raw, context("tasks/get"));
  },
  async cancel(send, taskId, options) {
    const raw = await send("tasks/cancel", { taskId }, options);
    parseResult(EmptyResultSchema, raw, context("tasks/cancel"));
  },
  async update(send, taskId, inputResponses, options) {
    const raw = await send("tasks/update", { taskId, inputResponses }, options);
    parseResult(EmptyResultSchema, raw, context("tasks/update"));
  },
  run(send, { handlers, era, request }) {
    const answered = new Set<string>();
    return {
      // Each request key is answered once, however many polls still show it.
      async input(task) {
        const pending = Object.entries(task.inputRequests ?? {}).filter(
          ([key]) => !answered.has(key),
        );
        if (pending.length === 0) return;
        const responses: Record<string, JsonObject> = await answerInputRequests(
          handlers,
          Object.fromEntries(pending),
          request.signal,
          era,
        );
        await modernTasks.update(send, task.taskId, responses, request);
        for (const [key] of pending) answered.add(key);
      },
      async result(task) {
        if (task.status === "failed") throw failure(task);
        return parseResult(CallToolResultSchema, task.result, context("tasks/get"));
      },
    };
  },
};
