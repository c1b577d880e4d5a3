import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";
import { ContentBlockSchema } from "./content.ts";

/** The client's answer to `elicitation/create`. */
export const ElicitResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.optional(
      z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
    ),
  }),
);
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

/** The client's answer to `sampling/createMessage`. */
export const CreateMessageResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    role: z.enum(["user", "assistant"]),
    content: z.union([ContentBlockSchema, z.array(JsonObjectSchema), JsonObjectSchema]),
    model: z.string(),
    stopReason: z.optional(z.string()),
  }),
);
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

const RootSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({ uri: z.string(), name: z.optional(z.string()) }),
);

/** The client's answer to `roots/list`. */
export const ListRootsResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({ roots: z.array(RootSchema) }),
);
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/** A sampling message, as servers send them in `sampling/createMessage`. */
export type SamplingMessage = {
  role: "user" | "assistant";
  content: Record<string, unknown> | Record<string, unknown>[];
};
