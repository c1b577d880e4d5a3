import * as z from "zod/mini";
import { JsonObjectSchema, JsonRpcIdSchema } from "./messages.ts";
import { LOG_LEVELS } from "./meta.ts";
import { TaskSchema } from "./tasks.ts";

/** How far a request has got, as `notifications/progress` reports it. */
export const ProgressSchema = z.object({
  progress: z.number(),
  total: z.optional(z.number()),
  message: z.optional(z.string()),
});
export type Progress = z.infer<typeof ProgressSchema>;

/** `notifications/progress` params: the progress and the token of the request. */
export const ProgressParamsSchema = z.extend(ProgressSchema, {
  progressToken: JsonRpcIdSchema,
});

/** `notifications/message` params: a log entry at a level. */
export const LogMessageParamsSchema = z.looseObject({
  level: z.enum(LOG_LEVELS),
  logger: z.optional(z.string()),
  data: z.unknown(),
});
export type LogMessageParams = z.infer<typeof LogMessageParamsSchema>;

/** What a `subscriptions/listen` request asks for; every member is optional. */
export const ListenFilterSchema = z.looseObject({
  toolsListChanged: z.optional(z.boolean()),
  promptsListChanged: z.optional(z.boolean()),
  resourcesListChanged: z.optional(z.boolean()),
  resourceSubscriptions: z.optional(z.array(z.string())),
  taskIds: z.optional(z.array(z.string())),
});
export type ListenFilter = z.infer<typeof ListenFilterSchema>;

/** The first message of a listen stream: the subset of the filter the server honours. */
export const SubscriptionAcknowledgedSchema = z.object({
  method: z.literal("notifications/subscriptions/acknowledged"),
  params: z.looseObject({ notifications: ListenFilterSchema, _meta: z.optional(JsonObjectSchema) }),
});

const Plain = z.optional(z.looseObject({ _meta: z.optional(JsonObjectSchema) }));

/** A notification a listen stream delivers after its acknowledgement. */
export const ListenNotificationSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("notifications/tools/list_changed"), params: Plain }),
  z.object({ method: z.literal("notifications/prompts/list_changed"), params: Plain }),
  z.object({ method: z.literal("notifications/resources/list_changed"), params: Plain }),
  z.object({
    method: z.literal("notifications/resources/updated"),
    params: z.looseObject({ uri: z.string(), _meta: z.optional(JsonObjectSchema) }),
  }),
  z.object({
    method: z.literal("notifications/tasks"),
    params: TaskSchema,
  }),
]);
export type ListenNotification = z.infer<typeof ListenNotificationSchema>;

/** `notifications/cancelled`: on HTTP, only a server ending a listen stream sends it. */
export const CancelledParamsSchema = z.looseObject({
  requestId: JsonRpcIdSchema,
  reason: z.optional(z.string()),
});
