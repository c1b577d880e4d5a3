import * as z from "zod/mini";
import { JsonObjectSchema } from "./messages.ts";
import { ServerCapabilitiesSchema } from "./capabilities.ts";
import { ContentBlockSchema, ResourceContentsSchema } from "./content.ts";
import {
  LooseImplementationSchema,
  PromptMessageSchema,
  PromptSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ToolSchema,
} from "./primitives.ts";

/** Who may reuse a cached result: everyone, or the same authorization only. */
const CacheScopeSchema = /* @__PURE__ */ z.lazy(() => z.enum(["public", "private"]));
export type CacheScope = z.infer<typeof CacheScopeSchema>;
/** How long a result stays fresh and who may share it (`ttlMs`, `cacheScope` on the wire). */
export type CacheHint = { ttlMs: number; cacheScope: CacheScope };

/**
 * Members every result may carry. `resultType` is required on 2026 results and absent on
 * 2025 ones (read as "complete"); the cache hints are required where cacheable on 2026 and
 * count as 0 when absent.
 */
const ResultBase = () => ({
  resultType: z.optional(z.string()),
  _meta: z.optional(JsonObjectSchema),
});
const CacheHints = () => ({
  ttlMs: z.optional(z.number()),
  cacheScope: z.optional(CacheScopeSchema),
});

/** `server/discover`: versions, capabilities, instructions; serverInfo is in `_meta`. */
export const DiscoverResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...ResultBase(),
    ...CacheHints(),
    supportedVersions: z.array(z.string()),
    capabilities: ServerCapabilitiesSchema,
    instructions: z.optional(z.string()),
  }),
);
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/** The legacy (2025) `initialize` result. */
export const InitializeResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    protocolVersion: z.string(),
    capabilities: ServerCapabilitiesSchema,
    serverInfo: LooseImplementationSchema,
    instructions: z.optional(z.string()),
    _meta: z.optional(JsonObjectSchema),
  }),
);
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

const Page = () => ({ ...ResultBase(), ...CacheHints(), nextCursor: z.optional(z.string()) });

/** One page of `tools/list`. */
export const ListToolsResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({ ...Page(), tools: z.array(ToolSchema) }),
);
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** One page of `prompts/list`. */
export const ListPromptsResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({ ...Page(), prompts: z.array(PromptSchema) }),
);
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** One page of `resources/list`. */
export const ListResourcesResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...Page(),
    resources: z.array(ResourceSchema),
  }),
);
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** One page of `resources/templates/list`. */
export const ListResourceTemplatesResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...Page(),
    resourceTemplates: z.array(ResourceTemplateSchema),
  }),
);
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** A complete `tools/call` result; `structuredContent` may be any JSON on 2026. */
export const CallToolResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...ResultBase(),
    content: z.array(ContentBlockSchema),
    structuredContent: z.optional(z.unknown()),
    isError: z.optional(z.boolean()),
  }),
);
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** A complete `resources/read` result. */
export const ReadResourceResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...ResultBase(),
    ...CacheHints(),
    contents: z.array(ResourceContentsSchema),
  }),
);
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** A complete `prompts/get` result. */
export const GetPromptResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...ResultBase(),
    description: z.optional(z.string()),
    messages: z.array(PromptMessageSchema),
  }),
);
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** `completion/complete`: at most 100 suggestions. */
export const CompleteResultSchema = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    ...ResultBase(),
    completion: z.looseObject({
      values: z.array(z.string()).check(z.maxLength(100)),
      total: z.optional(z.number()),
      hasMore: z.optional(z.boolean()),
    }),
  }),
);
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

/** A result with nothing to say (`tasks/update`, `tasks/cancel`, legacy `logging/setLevel`). */
export const EmptyResultSchema = /* @__PURE__ */ z.lazy(() => z.looseObject(ResultBase()));
