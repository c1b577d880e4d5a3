import type { JsonObject } from "../../protocol/messages.ts";
import type { CallToolResult } from "../../protocol/results.ts";
import type { Task } from "../../protocol/tasks.ts";
import type { ClientCore } from "../core.ts";
import type { RequestOptions } from "../options.ts";
import { awaitTask, type AwaitTaskOptions } from "./await-task.ts";
import { cancelTask, getTask, updateTask } from "./tasks.ts";

/** A task a tool call became: its last known state and what can be done with it. */
export class TaskHandle {
  constructor(
    private readonly core: ClientCore,
    /** The last state seen (updated by `refresh` and `result`). */
    public task: Task,
  ) {}

  get taskId(): string {
    return this.task.taskId;
  }

  async refresh(options: RequestOptions = {}): Promise<Task> {
    this.task = await getTask(this.core, this.taskId, options);
    return this.task;
  }

  update(inputResponses: Record<string, JsonObject>, options: RequestOptions = {}): Promise<void> {
    return updateTask(this.core, this.taskId, inputResponses, options);
  }

  cancel(options: RequestOptions = {}): Promise<void> {
    return cancelTask(this.core, this.taskId, options);
  }

  /** Waits for the tool's result, polling (and answering input) as `awaitTask` does. */
  result(options: AwaitTaskOptions = {}): Promise<CallToolResult> {
    return awaitTask(this.core, this.task, {
      ...options,
      onStatus: (task) => {
        this.task = task;
        options.onStatus?.(task);
      },
    });
  }
}
