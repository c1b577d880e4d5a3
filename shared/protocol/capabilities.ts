import * as z from "zod/mini";

const Flag = z.record(z.string(), z.unknown());

/** What a client declares it can do, sent in every modern request's `_meta`. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.optional(z.record(z.string(), Flag)),
  roots: z.optional(Flag),
  sampling: z.optional(z.looseObject({ context: z.optional(Flag), tools: z.optional(Flag) })),
  elicitation: z.optional(z.looseObject({ form: z.optional(Flag), url: z.optional(Flag) })),
  extensions: z.optional(z.record(z.string(), Flag)),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** What a server offers, in `server/discover` and the legacy `initialize` result. */
export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.optional(z.record(z.string(), Flag)),
  logging: z.optional(Flag),
  completions: z.optional(Flag),
  prompts: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
  resources: z.optional(
    z.looseObject({ subscribe: z.optional(z.boolean()), listChanged: z.optional(z.boolean()) }),
  ),
  tools: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
  extensions: z.optional(z.record(z.string(), Flag)),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
