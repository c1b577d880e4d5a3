import * as z from "zod/mini";
import { JsonRpcErrorObjectSchema } from "../../../shared/protocol/messages.ts";
import { TaskStatusSchema } from "../../../shared/protocol/tasks.ts";

/** Everything the task store keeps about a task. */
export const TaskStateSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    taskId: z.string(),
    server: z.string(),
    tool: z.string(),
    args: z.record(z.string(), z.unknown()),
    subject: z.string(),
    capabilities: z.record(z.string(), z.unknown()),
    status: TaskStatusSchema,
    statusMessage: z.optional(z.string()),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttlMs: z.int().check(z.positive()),
    pollIntervalMs: z.int().check(z.positive()),
    /** Answers to input requests so far, and the keys still awaited. */
    answers: z.record(z.string(), z.unknown()),
    pending: z.array(z.string()),
    inputRequests: z.optional(z.record(z.string(), z.unknown())),
    /** What a relaying tool stored when it last asked for input. */
    relayState: z.optional(z.unknown()),

    /** The caller's live-task lease, given back when the task ends or expires. */
    lease: z.optional(z.object({ caller: z.string(), id: z.string() })),

    result: z.optional(z.record(z.string(), z.unknown())),
    error: z.optional(JsonRpcErrorObjectSchema),
  }),
);
export type TaskState = z.infer<typeof TaskStateSchema>;

/** The task as clients see it (tasks/get, notifications/tasks): flat, without private fields. */
export function publicTask(state: TaskState): Record<string, unknown> {
  return {
    taskId: state.taskId,
    status: state.status,
    ...(state.statusMessage ? { statusMessage: state.statusMessage } : {}),
    createdAt: state.createdAt,
    lastUpdatedAt: state.lastUpdatedAt,
    ttlMs: state.ttlMs,
    pollIntervalMs: state.pollIntervalMs,
    ...(state.status === "input_required" && state.inputRequests
      ? { inputRequests: state.inputRequests }
      : {}),
    ...(state.status === "completed" && state.result ? { result: state.result } : {}),
    ...(state.status === "failed" && state.error ? { error: state.error } : {}),
  };
}
