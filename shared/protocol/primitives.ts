import * as z from "zod";
import { AnnotationsSchema, ContentBlockSchema, IconSchema } from "./content.ts";

const MetaSchema = z.record(z.string(), z.unknown());
const JsonSchemaObject = z.record(z.string(), z.unknown());

/** Hints about a tool's behaviour; clients must not trust them. */
export const ToolAnnotationsSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

export const ToolSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  inputSchema: JsonSchemaObject,
  outputSchema: JsonSchemaObject.optional(),
  annotations: ToolAnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});
export type Tool = z.infer<typeof ToolSchema>;

export const ResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  size: z.number().optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaSchema.optional(),
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceTemplateSchema = z.object({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaSchema.optional(),
});
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const PromptArgumentSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

export const PromptSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaSchema.optional(),
});
export type Prompt = z.infer<typeof PromptSchema>;

export const PromptMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: ContentBlockSchema,
});
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** Name, version and display details of a client or server. */
export const ImplementationSchema = z.object({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  websiteUrl: z.string().optional(),
  icons: z.array(IconSchema).optional(),
});
export type Implementation = z.infer<typeof ImplementationSchema>;
