import type { TaskStatus } from "../../../shared/protocol/tasks.ts";

/** How a call ended on the wire: with its answer, or otherwise. */
export type CallStatus = "running" | "done" | "failed" | "cancelled" | "timeout";

/** What the call's status line says, and the tone of its dot. */
export type CallState = { label: string; tone: CallStatus };

const ENDED: Record<Exclude<CallStatus, "running">, string> = {
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
  timeout: "Timed out",
};

const BY_TASK: Record<TaskStatus, CallState> = {
  working: { label: "Task working", tone: "running" },
  input_required: { label: "Task waiting for input", tone: "running" },
  completed: { label: "Done", tone: "done" },
  failed: { label: "Task failed", tone: "failed" },
  cancelled: { label: "Task cancelled", tone: "cancelled" },
};

/**
 * A call's state as a person should read it. A call the server made a task ends on the wire as
 * soon as the task is created, but the work is done only when the task is: until then the call
 * reads as the task's state, not "Done".
 */
export function callState(status: CallStatus, task?: TaskStatus): CallState {
  if (status === "running") return { label: "Running", tone: "running" };
  if (status === "done" && task !== undefined) return BY_TASK[task];
  return { label: ENDED[status], tone: status };
}
