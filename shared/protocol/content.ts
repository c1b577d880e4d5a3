import * as z from "zod";

/** An icon for display: `https:` or `data:` URLs only. */
export const IconSchema = z.object({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(["light", "dark"]).optional(),
});
export type Icon = z.infer<typeof IconSchema>;

export const AnnotationsSchema = z.object({
  audience: z.array(z.enum(["user", "assistant"])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});
export type Annotations = z.infer<typeof AnnotationsSchema>;

const MetaSchema = z.record(z.string(), z.unknown());
const common = { annotations: AnnotationsSchema.optional(), _meta: MetaSchema.optional() };

export const TextResourceContentsSchema = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string(),
  _meta: MetaSchema.optional(),
});
export const BlobResourceContentsSchema = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  blob: z.string(),
  _meta: MetaSchema.optional(),
});
export const ResourceContentsSchema = z.union([
  TextResourceContentsSchema,
  BlobResourceContentsSchema,
]);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

export const TextContentSchema = z.object({ type: z.literal("text"), text: z.string(), ...common });
export const ImageContentSchema = z.object({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  ...common,
});
export const AudioContentSchema = z.object({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  ...common,
});
export const ResourceLinkSchema = z.object({
  type: z.literal("resource_link"),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  icons: z.array(IconSchema).optional(),
  ...common,
});
export const EmbeddedResourceSchema = z.object({
  type: z.literal("resource"),
  resource: ResourceContentsSchema,
  ...common,
});

export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type TextContent = z.infer<typeof TextContentSchema>;
