import type { TaskMetadata } from "../../protocol/legacy-tasks.ts";
import type { JsonObject } from "../../protocol/messages.ts";
import type { TaskSupport } from "../../protocol/primitives.ts";
import type { CallToolResult } from "../../protocol/results.ts";
import type { Task } from "../../protocol/tasks.ts";
import type { Era } from "../../protocol/versions.ts";
import type { ErrorContext } from "../errors.ts";
import type { InputHandlers, RequestOptions } from "../options.ts";

/** Sends one request with the client's defaults and returns its raw result. */
export type SendRequest = (
  method: string,
  params: JsonObject,
  options: RequestOptions,
) => Promise<JsonObject>;

/** What a task run needs besides the wire: who answers input, and the caller's signal and meta. */
export type TaskRunOptions = {
  handlers: InputHandlers;
  era: Era;
  request: Pick<RequestOptions, "signal" | "meta">;
};

/** One task as the client waits for it: the input it asks for, then its tool result. */
export interface TaskRun {
  /** Answers what an `input_required` task asks for; called on every poll in that state. */
  input(task: Task): Promise<void>;
  /** The tool's result once the task completed or failed (a failure may throw instead). */
  result(task: Task): Promise<CallToolResult>;
}

/** What the client knows of a tool before calling it: its task support, where the era has it. */
export type ToolTaskFacts = {
  name: string;
  /** The tool's `execution.taskSupport`, listing the tools first if needed. */
  support: () => Promise<TaskSupport | undefined>;
  /** Whether the server declared task-augmented `tools/call`. */
  serverTasks: boolean;
};

/**
 * How tasks travel in an era: 2026 servers decide themselves to answer a call with a task
 * (`resultType: "task"`, input through `tasks/update`); 2025-11-25 clients ask with the call's
 * `task` param, and read the result (and the requests it carries) with `tasks/result`.
 */
export interface TaskProtocol {
  /**
   * The `task` param for a call, or undefined to call it plainly: from the caller's choice
   * (`asTask`) and the tool's support; a choice the tool or server refuses throws.
   */
  metadata(
    tool: ToolTaskFacts,
    asTask: boolean | undefined,
    context: ErrorContext,
  ): Promise<TaskMetadata | undefined>;
  /** The task a `tools/call` result started, or undefined for a plain result. */
  created(result: JsonObject, context: ErrorContext): Task | undefined;
  get(send: SendRequest, taskId: string, options: RequestOptions): Promise<Task>;
  cancel(send: SendRequest, taskId: string, options: RequestOptions): Promise<void>;
  update(
    send: SendRequest,
    taskId: string,
    inputResponses: Record<string, JsonObject>,
    options: RequestOptions,
  ): Promise<void>;
  run(send: SendRequest, options: TaskRunOptions): TaskRun;
}
