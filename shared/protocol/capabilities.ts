import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";

/** The extension id a client declares (and a server advertises) to use tasks. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What a client declares it can do, sent in every modern request's `_meta`. */
export const ClientCapabilitiesSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    experimental: z.optional(z.record(z.string(), JsonObjectSchema)),
    roots: z.optional(JsonObjectSchema),
    sampling: z.optional(
      z.looseObject({ context: z.optional(JsonObjectSchema), tools: z.optional(JsonObjectSchema) }),
    ),
    elicitation: z.optional(
      z.looseObject({ form: z.optional(JsonObjectSchema), url: z.optional(JsonObjectSchema) }),
    ),
    extensions: z.optional(z.record(z.string(), JsonObjectSchema)),
  }),
);
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** What a server offers, in `server/discover` and the legacy `initialize` result. */
export const ServerCapabilitiesSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    experimental: z.optional(z.record(z.string(), JsonObjectSchema)),
    logging: z.optional(JsonObjectSchema),
    completions: z.optional(JsonObjectSchema),
    prompts: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
    resources: z.optional(
      z.looseObject({ subscribe: z.optional(z.boolean()), listChanged: z.optional(z.boolean()) }),
    ),
    tools: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
    extensions: z.optional(z.record(z.string(), JsonObjectSchema)),
  }),
);
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
