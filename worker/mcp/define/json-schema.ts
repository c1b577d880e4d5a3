import * as z from "zod/mini";
import type { JsonObject } from "../../../shared/protocol/messages.ts";

/**
 * The JSON Schema (2020-12, the protocol's default dialect) of a zod schema, without the
 * `$schema` line. Computed once per definition, when the catalog is built.
 */
export function jsonSchemaOf(schema: z.core.$ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}
