import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";

/** A form elicitation: a message and a flat object schema of primitive fields. */
const ElicitFormParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    mode: z.optional(z.literal("form")),
    message: z.string(),
    requestedSchema: z.looseObject({
      type: z.literal("object"),
      properties: z.record(z.string(), JsonObjectSchema),
      required: z.optional(z.array(z.string())),
    }),
  }),
);

/** A URL elicitation: the user visits `url`; the outcome is learned on the retry. */
const ElicitUrlParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    mode: z.literal("url"),
    message: z.string(),
    url: z.string(),
  }),
);

/** The `data` of a 2025 -32042 error: the URL elicitations to complete before retrying. */
export const UrlElicitationRequiredDataSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({ elicitations: z.array(ElicitUrlParamsSchema) }),
);

/** What `elicitation/create` asks: a form, or a URL to visit. */
export const ElicitParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.union([ElicitFormParamsSchema, ElicitUrlParamsSchema]),
);
export type ElicitParams = z.infer<typeof ElicitParamsSchema>;

/** What `sampling/createMessage` asks of the client's model. */
export const CreateMessageParamsSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    messages: z.array(z.looseObject({ role: z.enum(["user", "assistant"]), content: z.unknown() })),
    maxTokens: z.number(),
    systemPrompt: z.optional(z.string()),
    temperature: z.optional(z.number()),
    stopSequences: z.optional(z.array(z.string())),
    includeContext: z.optional(z.string()),
    modelPreferences: z.optional(JsonObjectSchema),
    metadata: z.optional(JsonObjectSchema),
    tools: z.optional(z.array(JsonObjectSchema)),
    toolChoice: z.optional(JsonObjectSchema),
  }),
);
export type CreateMessageParams = z.infer<typeof CreateMessageParamsSchema>;

/** One request a server embeds in an `input_required` result (or an input-required task). */
export const InputRequestSchema = /* @__PURE__ */ z.lazy(() =>
  z.discriminatedUnion("method", [
    z.object({ method: z.literal("elicitation/create"), params: ElicitParamsSchema }),
    z.object({ method: z.literal("sampling/createMessage"), params: CreateMessageParamsSchema }),
    z.object({ method: z.literal("roots/list"), params: z.optional(JsonObjectSchema) }),
  ]),
);
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** A round's input requests, by key; answers go back under the same keys. */
export const InputRequestsSchema = /* @__PURE__ */ z.lazy(() =>
  z.record(z.string(), InputRequestSchema),
);
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** A server's request for client input (MRTR): retry with `inputResponses` and the echoed state. */
export const InputRequiredResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    resultType: z.literal("input_required"),
    inputRequests: z.optional(InputRequestsSchema),
    requestState: z.optional(z.string()),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;
