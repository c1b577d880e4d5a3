import type { TaskStore } from "../mcp/durable.ts";
import type { TaskObject } from "./task-object.ts";

/** Tasks in task objects, one per task; a malformed id names no task. */
export function taskStoreOver(namespace: DurableObjectNamespace<TaskObject>): TaskStore {
  const stub = (taskId: string): DurableObjectStub<TaskObject> | undefined => {
    try {
      return namespace.get(namespace.idFromString(taskId));
    } catch {
      return undefined;
    }
  };
  return {
    newId: () => namespace.newUniqueId().toString(),
    async create(task) {
      const object = stub(task.taskId);
      if (!object) throw new Error(`"${task.taskId}" is no task object's id`);
      const created = await object.create(task);
      if (created === undefined)
        throw new Error("This task was abandoned by its caller before it was created.");
      return created;
    },
    read: async (taskId, subject) => stub(taskId)?.read(subject),
    answer: async (taskId, subject, responses) =>
      (await stub(taskId)?.answer(subject, responses)) ?? false,
    cancel: async (taskId, subject) => (await stub(taskId)?.cancel(subject)) ?? false,
    abandon: async (taskId, subject) => stub(taskId)?.abandon(subject),
  };
}
