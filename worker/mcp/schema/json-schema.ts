import type * as z from "zod/mini";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { compact } from "./compact.ts";
import { writeJsonSchema } from "./writer.ts";

/**
 * zod's JSON Schema converter, `z.toJSONSchema` (classic or mini), given to a server that has
 * schemas the runtime's own writer does not cover (recursive ones, intersections, tuples...).
 */
export type JsonSchemaConverter = (
  schema: z.core.$ZodType,
  params: {
    io: "input" | "output";
    unrepresentable: "any";
    override: (context: { zodSchema: z.core.$ZodType; jsonSchema: object }) => void;
  },
) => object;

/**
 * The JSON Schema (2020-12, the protocol's default dialect) of a zod schema, without the
 * `$schema` line, in its compact form (see `compact`): written by the runtime's writer, or by
 * zod's converter when the server links it. Throws an UncoveredSchema for a schema the writer
 * does not cover.
 */
export function jsonSchemaOf(
  schema: z.core.$ZodType,
  io: "input" | "output",
  converter?: JsonSchemaConverter,
): JsonObject {
  if (converter === undefined) return writeJsonSchema(schema, io);
  const { $schema: _dialect, ...rest } = converter(schema, {
    io,
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) =>
      compact(zodSchema._zod.def, jsonSchema as Record<string, unknown>),
  }) as JsonObject;
  return rest;
}
