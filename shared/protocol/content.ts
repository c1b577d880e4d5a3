import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";

/** An icon for display: `https:` or `data:` URLs only. */
export const IconSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    src: z.string(),
    mimeType: z.optional(z.string()),
    sizes: z.optional(z.array(z.string())),
    theme: z.optional(z.enum(["light", "dark"])),
  }),
);
export type Icon = z.infer<typeof IconSchema>;

export const AnnotationsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    audience: z.optional(z.array(z.enum(["user", "assistant"]))),
    priority: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
    lastModified: z.optional(z.string()),
  }),
);
export type Annotations = z.infer<typeof AnnotationsSchema>;

// Inside a schema being built, members are taken unwrapped (`_zod.innerType`): a lazy member
// would cost a getter on every block parsed, and tool results parse every block they return.
const common = () => ({
  annotations: z.optional(AnnotationsSchema._zod.innerType),
  _meta: z.optional(JsonObjectSchema),
});

export const TextResourceContentsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    uri: z.string(),
    mimeType: z.optional(z.string()),
    text: z.string(),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export const BlobResourceContentsSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    uri: z.string(),
    mimeType: z.optional(z.string()),
    blob: z.string(),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export const ResourceContentsSchema = /* @__PURE__ */ z.lazy(() =>
  z.union([TextResourceContentsSchema, BlobResourceContentsSchema]),
);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

export const TextContentSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({ type: z.literal("text"), text: z.string(), ...common() }),
);
export const ImageContentSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    type: z.literal("image"),
    data: z.string(),
    mimeType: z.string(),
    ...common(),
  }),
);
export const AudioContentSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    type: z.literal("audio"),
    data: z.string(),
    mimeType: z.string(),
    ...common(),
  }),
);
export const ResourceLinkSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    type: z.literal("resource_link"),
    uri: z.string(),
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    size: z.optional(z.number()),
    icons: z.optional(z.array(IconSchema)),
    ...common(),
  }),
);
export const EmbeddedResourceSchema = /* @__PURE__ */ z.lazy(() =>
  z.object({
    type: z.literal("resource"),
    resource: ResourceContentsSchema,
    ...common(),
  }),
);

export const ContentBlockSchema = /* @__PURE__ */ z.lazy(() =>
  z.discriminatedUnion("type", [
    TextContentSchema._zod.innerType,
    ImageContentSchema._zod.innerType,
    AudioContentSchema._zod.innerType,
    ResourceLinkSchema._zod.innerType,
    EmbeddedResourceSchema._zod.innerType,
  ]),
);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type TextContent = z.infer<typeof TextContentSchema>;
