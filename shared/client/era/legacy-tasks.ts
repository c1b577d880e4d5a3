import {
  LegacyCreateTaskResultSchema,
  LegacyTaskSchema,
  taskOfLegacy,
} from "../../protocol/legacy-tasks.ts";
import { CallToolResultSchema, type CallToolResult } from "../../protocol/results.ts";
import { McpError, type ErrorContext } from "../errors.ts";
import { parseResult } from "../parse.ts";
import type { TaskProtocol } from "./task-protocol.ts";

const context = (method: string): ErrorContext => ({ era: "legacy", method });

/**
 * Tasks in 2025-11-25: a call asks for one with its `task` param (which a tool with
 * `taskSupport: "required"` demands), `tasks/get` polls it, and `tasks/result` returns the
 * tool's result once it ends, carrying on its stream the requests (elicitation, sampling) the
 * task makes meanwhile. There is no `tasks/update`.
 */
export const legacyTasks: TaskProtocol = {
  async metadata(tool, asTask, errorContext) {
    if (asTask === false) {
      if (!tool.serverTasks || (await tool.support()) !== "required") return undefined;
      throw new McpError(`The tool "${tool.name}" runs only as a task.`, {
        kind: "client",
        data: { tool: tool.name, taskSupport: "required" },
        ...errorContext,
      });
    }
    if (!tool.serverTasks) {
      if (!asTask) return undefined;
      throw new McpError("The server does not run tools/call as tasks.", {
        kind: "client",
        data: { tool: tool.name },
        ...errorContext,
      });
    }
    const support = await tool.support();
    if (asTask === undefined) return support === "required" ? {} : undefined;
    if (support === "required" || support === "optional") return {};
    throw new McpError(`The tool "${tool.name}" cannot run as a task.`, {
      kind: "client",
      data: { tool: tool.name, taskSupport: support ?? "unknown" },
      ...errorContext,
    });
  },
  created(result, errorContext) {
    if (!("task" in result)) return undefined;
    return taskOfLegacy(parseResult(LegacyCreateTaskResultSchema, result, errorContext).task);
  },
  async get(send, taskId, options) {
    const raw = await send("tasks/get", { taskId }, options);
    return taskOfLegacy(parseResult(LegacyTaskSchema, raw, context("tasks/get")));
  },
  async cancel(send, taskId, options) {
    const raw = await send("tasks/cancel", { taskId }, options);
    parseResult(LegacyTaskSchema, raw, context("tasks/cancel"));
  },
  async update() {
    throw new McpError("2025 servers take a task's input on the tasks/result stream.", {
      kind: "client",
      ...context("tasks/update"),
    });
  },
  run(send, { request }) {
    let payload: Promise<CallToolResult> | undefined;
    const fetchResult = (taskId: string) =>
      (payload ??= send("tasks/result", { taskId }, request).then((raw) =>
        parseResult(CallToolResultSchema, raw, context("tasks/result")),
      ));
    return {
      // tasks/result blocks until the task ends and carries its requests, which the client
      // answers as it reads them; it is sent once, and later polls only watch the status.
      async input(task) {
        fetchResult(task.taskId).catch(() => {});
      },
      result(task) {
        return fetchResult(task.taskId);
      },
    };
  },
};
