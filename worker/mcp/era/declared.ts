import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import {
  arrayOf,
  ICON_FIELDS,
  is,
  isRecord,
  object,
  optional,
  problemsOf,
  record,
  string,
} from "../../../shared/protocol/hand-check.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";

// What a client declares about itself, read by hand: every request of either era reads it, and
// these lines take and refuse exactly what ClientCapabilitiesSchema and ImplementationSchema do,
// so the envelopes link neither those schemas nor the zod kinds only they use (arrays, enums).

const flags = optional(record);
const map = optional(
  is((value) => isRecord(value, (item) => isRecord(item)), "expected an object of JSON objects"),
);

/** Unknown members pass, here and in each capability. */
const capabilities = object({
  experimental: map,
  extensions: map,
  roots: flags,
  sampling: optional(object({ context: flags, tools: flags })),
  elicitation: optional(object({ form: flags, url: flags })),
});

/** The capabilities as declared (unknown members kept), or undefined when they are malformed. */
export function readCapabilities(value: unknown): ClientCapabilities | undefined {
  return problemsOf(capabilities, value).length > 0 ? undefined : (value as ClientCapabilities);
}

const IMPLEMENTATION_FIELDS = {
  name: string,
  version: string,
  title: optional(string),
  description: optional(string),
  websiteUrl: optional(string),
  icons: optional(arrayOf(object(ICON_FIELDS))),
};
const implementation = object(IMPLEMENTATION_FIELDS);

/** The members of `value` that `fields` name and that are given; others are dropped. */
function pick(value: Record<string, unknown>, fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

/** A client's name, version and display details (other members dropped), or undefined. */
export function readImplementation(value: unknown): Implementation | undefined {
  if (problemsOf(implementation, value).length > 0) return undefined;
  const info = pick(value as Record<string, unknown>, IMPLEMENTATION_FIELDS);
  if (Array.isArray(info.icons))
    info.icons = info.icons.map((given: Record<string, unknown>) => {
      const icon = pick(given, ICON_FIELDS);
      if (Array.isArray(icon.sizes)) icon.sizes = [...(icon.sizes as string[])];
      return icon;
    });
  return info as unknown as Implementation;
}
