import * as z from "zod/mini";
import type { JsonObject } from "../../../shared/protocol/messages.ts";

/**
 * The JSON Schema (2020-12, the protocol's default dialect) of a zod schema, without the
 * `$schema` line, in its compact form (see `compact`). Computed once per definition, when the
 * catalog is built.
 */
export function jsonSchemaOf(schema: z.core.$ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: compact,
  });
  return rest;
}

/**
 * Drops what zod adds that says nothing `type` and `format` do not, and costs tokens in every
 * list: the ±(2^53 - 1) bounds of `z.int()` (`"type": "integer"` says it) and the long regular
 * expression beside a standard `format` (`"format": "date-time"` says it). Bounds and patterns
 * an author set are kept; the server still validates arguments with the zod schema itself.
 */
function compact({
  zodSchema,
  jsonSchema,
}: {
  zodSchema: z.core.$ZodType;
  jsonSchema: Record<string, unknown>;
}): void {
  if (jsonSchema.type === "integer") {
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  }
  // A string format schema carries its own regular expression; an author's `.regex()` is another.
  const own: unknown = Reflect.get(zodSchema._zod.def, "pattern");
  if (
    typeof jsonSchema.format === "string" &&
    own instanceof RegExp &&
    jsonSchema.pattern === own.source
  ) {
    delete jsonSchema.pattern;
  }
}
