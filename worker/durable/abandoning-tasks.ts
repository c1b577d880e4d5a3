import type { CallerTasks } from "../mcp/ports.ts";

/**
 * `tasks`, whose creates are forgotten when they fail: the id is picked before the create, and
 * when the create fails or does not answer in time (the caller is answered 503 and never learns
 * the id), the task is abandoned in the background, so that a create still on its way, or one
 * that went through after all, leaves no task running unknown to its caller. The abandon is a
 * call on the same port, bounded like every other; when it too fails, the task runs until it
 * expires, as it would have.
 */
export function abandoningRefused(
  tasks: CallerTasks,
  waitUntil: (promise: Promise<unknown>) => void,
): CallerTasks {
  const { newTaskId, abandon } = tasks;
  if (!newTaskId || !abandon) return tasks;
  return {
    async create(start) {
      const taskId = start.taskId ?? newTaskId.call(tasks);
      try {
        return await tasks.create({ ...start, taskId });
      } catch (error) {
        // A failure here was logged where the port is bounded; the caller has its 503.
        waitUntil(abandon.call(tasks, taskId).catch(() => {}));
        throw error;
      }
    },
    get: (taskId) => tasks.get(taskId),
    update: (taskId, responses) => tasks.update(taskId, responses),
    cancel: (taskId) => tasks.cancel(taskId),
    newTaskId: () => newTaskId.call(tasks),
    abandon: (taskId) => abandon.call(tasks, taskId),
  };
}
