import * as z from "zod/mini";
import { InputRequestsSchema } from "./input-requests.ts";
import { JsonRpcErrorObjectSchema, JsonObjectSchema } from "./messages.ts";

// The extension id is a capability key; it is named here too, beside the task it enables.
export { TASKS_EXTENSION } from "./capabilities.ts";

/** Where a task stands; `completed`, `failed` and `cancelled` are final. */
export const TaskStatusSchema = /* @__PURE__ */ z.lazy(() =>
  z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** Statuses after which a task never changes again. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

/** A task as `tasks/get` and `notifications/tasks` carry it (flat, with status-specific members). */
export const TaskSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    taskId: z.string(),
    status: TaskStatusSchema,
    statusMessage: z.optional(z.string()),
    createdAt: z.optional(z.string()),
    lastUpdatedAt: z.optional(z.string()),
    ttlMs: z.optional(z.nullable(z.number())),
    pollIntervalMs: z.optional(z.number()),
    inputRequests: z.optional(InputRequestsSchema),
    result: z.optional(JsonObjectSchema),
    error: z.optional(JsonRpcErrorObjectSchema),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type Task = z.infer<typeof TaskSchema>;

/** What `tools/call` returns when the server runs the call as a task. */
export const CreateTaskResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.extend(TaskSchema._zod.innerType, { resultType: z.literal("task") }),
);
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** `tasks/get`: the spec says `resultType: "complete"`; some examples show `"task"`. */
export const GetTaskResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.extend(TaskSchema._zod.innerType, {
    resultType: z.optional(z.enum(["complete", "task"])),
  }),
);
