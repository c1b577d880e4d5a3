import * as z from "zod";

const Flag = z.record(z.string(), z.unknown());

/** What a client declares it can do, sent in every modern request's `_meta`. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), Flag).optional(),
  roots: Flag.optional(),
  sampling: z.looseObject({ context: Flag.optional(), tools: Flag.optional() }).optional(),
  elicitation: z.looseObject({ form: Flag.optional(), url: Flag.optional() }).optional(),
  extensions: z.record(z.string(), Flag).optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** What a server offers, in `server/discover` and the legacy `initialize` result. */
export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), Flag).optional(),
  logging: Flag.optional(),
  completions: Flag.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  extensions: z.record(z.string(), Flag).optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
