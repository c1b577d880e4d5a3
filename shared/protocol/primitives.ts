import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";
import { AnnotationsSchema, ContentBlockSchema, IconSchema } from "./content.ts";

/** Hints about a tool's behaviour; clients must not trust them. */
export const ToolAnnotationsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    title: z.optional(z.string()),
    readOnlyHint: z.optional(z.boolean()),
    destructiveHint: z.optional(z.boolean()),
    idempotentHint: z.optional(z.boolean()),
    openWorldHint: z.optional(z.boolean()),
  }),
);
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** Tool and prompt names clients accept: 1-128 of A-Z a-z 0-9 _ . - */
export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * How a 2025-11-25 tool runs: `taskSupport` says whether a call may (`optional`) or must
 * (`required`) ask to run as a task; absent means `forbidden`. Kept as a string so one tool's
 * unknown value does not reject the whole list (`taskSupportOf` reads it).
 */
export const ToolExecutionSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({ taskSupport: z.optional(z.string()) }),
);

export const ToolSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    icons: z.optional(z.array(IconSchema)),
    inputSchema: JsonObjectSchema,
    outputSchema: z.optional(JsonObjectSchema),
    annotations: z.optional(ToolAnnotationsSchema),
    execution: z.optional(ToolExecutionSchema),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type Tool = z.infer<typeof ToolSchema>;

/** Whether a tool can or must be called as a 2025-11-25 task. */
export type TaskSupport = "forbidden" | "optional" | "required";

/** A tool's task support as the 2025-11-25 schema defines it (absent or unknown: forbidden). */
export function taskSupportOf(tool: Pick<Tool, "execution">): TaskSupport {
  const value = tool.execution?.taskSupport;
  return value === "optional" || value === "required" ? value : "forbidden";
}

export const ResourceSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    uri: z.string(),
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    annotations: z.optional(AnnotationsSchema),
    size: z.optional(z.number()),
    icons: z.optional(z.array(IconSchema)),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceTemplateSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    uriTemplate: z.string(),
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    annotations: z.optional(AnnotationsSchema),
    icons: z.optional(z.array(IconSchema)),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const PromptArgumentSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    required: z.optional(z.boolean()),
  }),
);
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

export const PromptSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    arguments: z.optional(z.array(PromptArgumentSchema)),
    icons: z.optional(z.array(IconSchema)),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type Prompt = z.infer<typeof PromptSchema>;

export const PromptMessageSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    role: z.enum(["user", "assistant"]),
    content: ContentBlockSchema,
  }),
);
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** Name, version and display details of a client or server. */
export const ImplementationSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    name: z.string(),
    version: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    websiteUrl: z.optional(z.string()),
    icons: z.optional(z.array(IconSchema)),
  }),
);
export type Implementation = z.infer<typeof ImplementationSchema>;
/** A peer's implementation info as it arrives: unknown members kept. */
export const LooseImplementationSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject(ImplementationSchema._zod.innerType.shape),
);
