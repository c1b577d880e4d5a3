// What the Durable Objects of worker/durable/ run of the runtime: the task service they store
// for, a task's run and its public state, the listen filter and its messages, and the 2025
// input rendezvous. The objects reach the runtime through this file and the ports (ports.ts)
// only, so what they depend on is one list, and lint keeps it so.
export { callerIdentity } from "./context/address.ts";
export { legacyInput } from "./era/legacy/input.ts";
export type { ListenEvent } from "./context/context.ts";
export { notificationFor } from "./listen/filter.ts";
export { listenMessages } from "./listen/messages.ts";
export { registeredServer } from "./server/registry.ts";
export { runTask } from "./tasks/run.ts";
export { TaskService, type TaskStore } from "./tasks/service.ts";
export { publicTask, TaskStateSchema, type TaskState } from "./tasks/state.ts";
