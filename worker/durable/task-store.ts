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
    async create(task) {
      const id = namespace.newUniqueId();
      return namespace.get(id).create({ ...task, taskId: id.toString() });
    },
    read: async (taskId, subject) => stub(taskId)?.read(subject),
    answer: async (taskId, subject, responses) =>
      (await stub(taskId)?.answer(subject, responses)) ?? false,
    cancel: async (taskId, subject) => (await stub(taskId)?.cancel(subject)) ?? false,
  };
}
