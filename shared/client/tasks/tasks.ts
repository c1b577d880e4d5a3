import type { JsonObject } from "../../protocol/messages.ts";
import type { Task } from "../../protocol/tasks.ts";
import type { ClientCore } from "../core.ts";
import type { SendRequest } from "../era/task-protocol.ts";
import type { RequestOptions } from "../options.ts";

/** The client's `send`, as an era's task protocol takes it. */
export function sender(core: ClientCore): SendRequest {
  return (method, params, options) => core.send(method, params, options);
}

/** `tasks/get`: the task's current state. */
export function getTask(core: ClientCore, taskId: string, options: RequestOptions): Promise<Task> {
  return core.era.tasks.get(sender(core), taskId, options);
}

/** `tasks/update` (2026): answers some or all of an input-required task's outstanding requests. */
export function updateTask(
  core: ClientCore,
  taskId: string,
  inputResponses: Record<string, JsonObject>,
  options: RequestOptions,
): Promise<void> {
  return core.era.tasks.update(sender(core), taskId, inputResponses, options);
}

/** `tasks/cancel`: asks the server to stop the task (cooperative, eventually consistent). */
export function cancelTask(
  core: ClientCore,
  taskId: string,
  options: RequestOptions,
): Promise<void> {
  return core.era.tasks.cancel(sender(core), taskId, options);
}
