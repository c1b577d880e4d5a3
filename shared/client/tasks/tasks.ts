import type { JsonObject } from "../../protocol/messages.ts";
import { EmptyResultSchema } from "../../protocol/results.ts";
import { GetTaskResultSchema, type Task } from "../../protocol/tasks.ts";
import type { ClientCore } from "../core.ts";
import type { RequestOptions } from "../options.ts";
import { parseResult } from "../parse.ts";

async function taskRequest(
  core: ClientCore,
  method: string,
  params: JsonObject & { taskId: string },
  options: RequestOptions,
): Promise<JsonObject> {
  core.era.require2026(
    `${method} needs a 2026 server (the tasks extension).`,
    core.context(method),
  );
  return core.send(method, params, options);
}

/** `tasks/get`: the task's current state. */
export async function getTask(
  core: ClientCore,
  taskId: string,
  options: RequestOptions,
): Promise<Task> {
  const raw = await taskRequest(core, "tasks/get", { taskId }, options);
  return parseResult(GetTaskResultSchema, raw, core.context("tasks/get"));
}

/** `tasks/update`: answers some or all of an input-required task's outstanding requests. */
export async function updateTask(
  core: ClientCore,
  taskId: string,
  inputResponses: Record<string, JsonObject>,
  options: RequestOptions,
): Promise<void> {
  const raw = await taskRequest(core, "tasks/update", { taskId, inputResponses }, options);
  parseResult(EmptyResultSchema, raw, core.context("tasks/update"));
}

/** `tasks/cancel`: asks the server to stop the task (cooperative, eventually consistent). */
export async function cancelTask(
  core: ClientCore,
  taskId: string,
  options: RequestOptions,
): Promise<void> {
  const raw = await taskRequest(core, "tasks/cancel", { taskId }, options);
  parseResult(EmptyResultSchema, raw, core.context("tasks/cancel"));
}
