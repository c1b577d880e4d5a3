import type * as z from "zod/mini";
import {
  headerDeclarationsOf,
  type HeaderParam,
} from "../../../shared/protocol/header-declarations.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { Resource, ResourceTemplate, Tool } from "../../../shared/protocol/primitives.ts";
import type { ListKey, ServerDefinition } from "../define/definition.ts";
import { jsonSchemaOf, type JsonSchemaConverter } from "../schema/json-schema.ts";
import { UncoveredSchema } from "../schema/writer.ts";
import type { ListedResource, ResourceTemplateDefinition } from "../define/resource.ts";
import type { AnyTool } from "../define/tool.ts";

/** A tool ready to serve: its definition, its wire form and the arguments mirrored in headers. */
export type CompiledTool = { definition: AnyTool; wire: Tool; headerParams: HeaderParam[] };

/**
 * Compiles a tool: its JSON Schemas, derived once (by zod's converter when the server links
 * it), and its `x-mcp-header` declarations. Throws on what clients would reject (a root schema
 * that is not an object, a broken header declaration) and on a schema only zod's converter can
 * write: a bug in the server definition.
 */
export function compileTool(definition: AnyTool, converter?: JsonSchemaConverter): CompiledTool {
  if (definition.input !== undefined && !isZodSchema(definition.input)) {
    throw new Error(
      `input must be a zod object schema (z.object({ ... })); to advertise a hand-written JSON Schema, pass it as inputSchema.`,
    );
  }
  if (definition.output !== undefined && !isZodSchema(definition.output)) {
    throw new Error(
      `output must be a zod schema; to advertise a hand-written JSON Schema, pass it as outputSchema.`,
    );
  }
  const inputSchema =
    definition.inputSchema ??
    (definition.input
      ? schemaOf(definition.input, "input", converter)
      : { type: "object", properties: {} });
  if (inputSchema.type !== "object") {
    const found =
      inputSchema.type === undefined ? "no type" : `type ${JSON.stringify(inputSchema.type)}`;
    throw new Error(
      `arguments are a JSON object, so the input schema's root needs type "object" (it has ${found}); wrap the value in an object, e.g. z.object({ value: ... }).`,
    );
  }
  const outputSchema = definition.output
    ? schemaOf(definition.output, "output", converter)
    : definition.outputSchema;
  const wire: Tool = strip({
    name: definition.name,
    title: definition.title,
    description: definition.description,
    icons: definition.icons,
    inputSchema,
    outputSchema,
    annotations: definition.annotations,
    _meta: definition._meta,
  });
  // Clients drop a tool whose declarations break the transport's rules: a definition bug. The
  // writer's schemas are plain JSON, so one without the annotation's name declares nothing and
  // skips the walk (and its compiling, at start-up); a hand-written schema is always walked.
  const declarations =
    definition.inputSchema === undefined && !JSON.stringify(inputSchema).includes(ANNOTATED)
      ? { ok: true as const, params: [] }
      : headerDeclarationsOf(inputSchema);
  if (!declarations.ok) {
    throw new Error(`invalid x-mcp-header: ${declarations.reason}.`);
  }
  return { definition, wire, headerParams: declarations.params };
}

const ANNOTATED = '"x-mcp-header"';

/** A tool's input or output JSON Schema; a schema the writer does not cover says what to do. */
function schemaOf(
  schema: z.core.$ZodType,
  io: "input" | "output",
  converter: JsonSchemaConverter | undefined,
): JsonObject {
  try {
    return jsonSchemaOf(schema, io, converter);
  } catch (error) {
    if (!(error instanceof UncoveredSchema)) throw error;
    throw new Error(
      `its ${io} schema has ${error.where}, which edgemcp's JSON Schema writer does not cover; link zod's converter with defineServer({ ..., toJSONSchema: z.toJSONSchema }), or advertise a hand-written ${io}Schema.`,
      { cause: error },
    );
  }
}

export function resourceWire(r: ListedResource): Resource {
  return strip({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    annotations: r.annotations,
    size: r.size,
    icons: r.icons,
    _meta: r._meta,
  });
}

export function templateWire(t: ResourceTemplateDefinition): ResourceTemplate {
  return strip({
    uriTemplate: t.uriTemplate,
    name: t.name,
    title: t.title,
    description: t.description,
    mimeType: t.mimeType,
    annotations: t.annotations,
    icons: t.icons,
    _meta: t._meta,
  });
}

/** Items per page of each list (default 100); throws on a size that is not a positive integer. */
export function pageSizes(option: ServerDefinition["pageSize"]): Record<ListKey, number> {
  const given =
    typeof option === "number"
      ? { tools: option, prompts: option, resources: option, resourceTemplates: option }
      : (option ?? {});
  const sizes = { tools: 100, prompts: 100, resources: 100, resourceTemplates: 100, ...given };
  for (const [list, size] of Object.entries(sizes)) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`pageSize for ${list} must be a positive integer (it is ${String(size)}).`);
  }
  return sizes;
}

/** Whether a value is a zod schema (classic or mini), not a plain object passed by mistake. */
export function isZodSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** Drops undefined members so the wire JSON has no `"x": undefined` noise. */
export function strip<T extends JsonObject>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}
