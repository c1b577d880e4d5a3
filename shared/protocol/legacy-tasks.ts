import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";
import { TaskStatusSchema, type Task } from "./tasks.ts";

/**
 * A task as 2025-11-25 servers describe it (`tasks/get`, `tasks/cancel`, the `task` of a
 * CreateTaskResult, `notifications/tasks/status`): `ttl` and `pollInterval` in milliseconds.
 * The schema requires the timestamps and `ttl`; they are optional here so a server that omits
 * one still has its task followed (the checker reports the omission).
 */
export const LegacyTaskSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    taskId: z.string(),
    status: TaskStatusSchema,
    statusMessage: z.optional(z.string()),
    createdAt: z.optional(z.string()),
    lastUpdatedAt: z.optional(z.string()),
    ttl: z.optional(z.nullable(z.number())),
    pollInterval: z.optional(z.number()),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type LegacyTask = z.infer<typeof LegacyTaskSchema>;

/** What a task-augmented 2025-11-25 request returns at once: the task it started. */
export const LegacyCreateTaskResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({ task: LegacyTaskSchema, _meta: z.optional(JsonObjectSchema) }),
);

/** Server capabilities that allow `task` on `tools/call` (2025-11-25). */
export const ToolCallTasksSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    tasks: z.looseObject({
      requests: z.looseObject({ tools: z.looseObject({ call: z.looseObject({}) }) }),
    }),
  }),
);

/** The `task` member of a 2025-11-25 request's params: ask to run it as a task. */
export type TaskMetadata = { ttl?: number };

/** A 2025-11-25 task in the client's one task shape (the 2026 names: `ttlMs`, `pollIntervalMs`). */
export function taskOfLegacy(task: LegacyTask): Task {
  const { ttl, pollInterval, ...rest } = task;
  return {
    ...rest,
    ...(ttl === undefined ? {} : { ttlMs: ttl }),
    ...(pollInterval === undefined ? {} : { pollIntervalMs: pollInterval }),
  };
}
