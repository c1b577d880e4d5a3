import * as z from "zod/mini";
import { JsonObjectSchema, JsonRpcIdSchema } from "./messages.ts";
import { LOG_LEVELS } from "./meta.ts";

const Cursor = () => ({ cursor: z.optional(z.string()) });
const Mrtr = () => ({
  inputResponses: z.optional(JsonObjectSchema),
  requestState: z.optional(z.string()),
});

/** Params of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`. */
export const ListParamsSchema = /* @__PURE__ */ z.lazy(() => z.object(Cursor()));

export const CallToolParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    name: z.string(),
    arguments: z.optional(JsonObjectSchema),
    ...Mrtr(),
  }),
);
export type CallToolParams = z.infer<typeof CallToolParamsSchema>;

export const GetPromptParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    name: z.string(),
    arguments: z.optional(z.record(z.string(), z.string())),
    ...Mrtr(),
  }),
);

/** An absolute URI (RFC 3986): a scheme, then visible ASCII; other characters are percent-encoded. */
const uriString = () =>
  z
    .string()
    .check(
      z.regex(
        /^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]*$/,
        "must be an absolute URI (RFC 3986): a scheme, then visible ASCII with other characters percent-encoded",
      ),
    );

export const ReadResourceParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({ uri: uriString(), ...Mrtr() }),
);

export const CompleteParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    ref: z.discriminatedUnion("type", [
      z.object({ type: z.literal("ref/prompt"), name: z.string() }),
      z.object({ type: z.literal("ref/resource"), uri: z.string() }),
    ]),
    argument: z.object({ name: z.string(), value: z.string() }),
    context: z.optional(z.object({ arguments: z.optional(z.record(z.string(), z.string())) })),
  }),
);
export type CompleteParams = z.infer<typeof CompleteParamsSchema>;

/** Params of the legacy `initialize` handshake. */
export const InitializeParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    protocolVersion: z.string(),
    capabilities: JsonObjectSchema,
    clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
  }),
);

export const SetLevelParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    level: z.enum(LOG_LEVELS),
  }),
);

/** Params of the legacy `resources/subscribe` and `resources/unsubscribe`. */
export const SubscribeParamsSchema = /* @__PURE__ */ z.lazy(() => z.object({ uri: uriString() }));

/** What a `subscriptions/listen` request asks for; every member is optional. */
export const ListenFilterSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    toolsListChanged: z.optional(z.boolean()),
    promptsListChanged: z.optional(z.boolean()),
    resourcesListChanged: z.optional(z.boolean()),
    resourceSubscriptions: z.optional(z.array(z.string())),
    taskIds: z.optional(z.array(z.string())),
  }),
);
export type ListenFilter = z.infer<typeof ListenFilterSchema>;

/** `notifications/cancelled`: on HTTP, only a server ending a listen stream sends it. */
export const CancelledParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    requestId: JsonRpcIdSchema,
    reason: z.optional(z.string()),
  }),
);
