import * as z from "zod/mini";
import { JsonObjectSchema, JsonRpcIdSchema } from "./messages.ts";
import { LOG_LEVELS } from "./meta.ts";
import { ListenFilterSchema } from "./params.ts";
import { TaskSchema } from "./tasks.ts";

// The params of a listen request and of notifications/cancelled live with the other params;
// they are named here too, where readers of listen streams look for them.
export { CancelledParamsSchema, ListenFilterSchema, type ListenFilter } from "./params.ts";

/** How far a request has got, as `notifications/progress` reports it. */
export const ProgressSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    progress: z.number(),
    total: z.optional(z.number()),
    message: z.optional(z.string()),
  }),
);
export type Progress = z.infer<typeof ProgressSchema>;

/** `notifications/progress` params: the progress and the token of the request. */
export const ProgressParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.extend(ProgressSchema._zod.innerType, {
    progressToken: JsonRpcIdSchema,
  }),
);

/** `notifications/message` params: a log entry at a level. */
export const LogMessageParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    level: z.enum(LOG_LEVELS),
    logger: z.optional(z.string()),
    data: z.unknown(),
  }),
);
export type LogMessageParams = z.infer<typeof LogMessageParamsSchema>;

/** The first message of a listen stream: the subset of the filter the server honours. */
export const SubscriptionAcknowledgedSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    method: z.literal("notifications/subscriptions/acknowledged"),
    params: z.looseObject({
      notifications: ListenFilterSchema,
      _meta: z.optional(JsonObjectSchema),
    }),
  }),
);

const Plain = () => z.optional(z.looseObject({ _meta: z.optional(JsonObjectSchema) }));

/** A notification a listen stream delivers after its acknowledgement. */
export const ListenNotificationSchema = /* @__PURE__ */ z.lazy(() => {
  const plain = Plain();
  return z.discriminatedUnion("method", [
    z.object({ method: z.literal("notifications/tools/list_changed"), params: plain }),
    z.object({ method: z.literal("notifications/prompts/list_changed"), params: plain }),
    z.object({ method: z.literal("notifications/resources/list_changed"), params: plain }),
    z.object({
      method: z.literal("notifications/resources/updated"),
      params: z.looseObject({ uri: z.string(), _meta: z.optional(JsonObjectSchema) }),
    }),
    z.object({
      method: z.literal("notifications/tasks"),
      params: TaskSchema,
    }),
  ]);
});
export type ListenNotification = z.infer<typeof ListenNotificationSchema>;
