import * as z from "zod";
import { InputRequestsSchema } from "./input-requests.ts";
import { JsonRpcErrorObjectSchema } from "./messages.ts";

/** The extension id a client declares (and a server advertises) to use tasks. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Where a task stands; `completed`, `failed` and `cancelled` are final. */
export const TaskStatusSchema = z.enum([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** Statuses after which a task never changes again. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

/** A task as `tasks/get` and `notifications/tasks` carry it (flat, with status-specific members). */
export const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string().optional(),
  lastUpdatedAt: z.string().optional(),
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional(),
  inputRequests: InputRequestsSchema.optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: JsonRpcErrorObjectSchema.optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type Task = z.infer<typeof TaskSchema>;

/** What `tools/call` returns when the server runs the call as a task. */
export const CreateTaskResultSchema = TaskSchema.extend({ resultType: z.literal("task") });
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** `tasks/get`: the spec says `resultType: "complete"`; some examples show `"task"`. */
export const GetTaskResultSchema = TaskSchema.extend({
  resultType: z.enum(["complete", "task"]).optional(),
});
