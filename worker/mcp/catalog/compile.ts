import * as z from "zod/mini";
import {
  headerDeclarationsOf,
  type HeaderParam,
} from "../../../shared/protocol/header-declarations.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type {
  Prompt,
  PromptArgument,
  Resource,
  ResourceTemplate,
  Tool,
} from "../../../shared/protocol/primitives.ts";
import type { ListKey, ServerDefinition } from "../define/definition.ts";
import { jsonSchemaOf } from "../define/json-schema.ts";
import type { PromptDefinition } from "../define/prompt.ts";
import type { ListedResource, ResourceTemplateDefinition } from "../define/resource.ts";
import type { AnyTool } from "../define/tool.ts";

/** A tool ready to serve: its definition, its wire form and the arguments mirrored in headers. */
export type CompiledTool = { definition: AnyTool; wire: Tool; headerParams: HeaderParam[] };

/**
 * Compiles a tool: its JSON Schemas, derived once, and its `x-mcp-header` declarations. Throws
 * on what clients would reject (a root schema that is not an object, a broken header
 * declaration): a bug in the server definition.
 */
export function compileTool(server: string, definition: AnyTool): CompiledTool {
  const inputSchema =
    definition.inputSchema ??
    (definition.input
      ? jsonSchemaOf(definition.input, "input")
      : { type: "object", properties: {} });
  if (inputSchema.type !== "object") {
    throw new Error(
      `Server "${server}": tool "${definition.name}" needs an input schema whose root has type "object".`,
    );
  }
  const outputSchema = definition.output
    ? jsonSchemaOf(definition.output, "output")
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
  // Clients drop a tool whose declarations break the transport's rules: a definition bug.
  const declarations = headerDeclarationsOf(inputSchema);
  if (!declarations.ok) {
    throw new Error(
      `Tool "${definition.name}" has an invalid x-mcp-header: ${declarations.reason}.`,
    );
  }
  return { definition, wire, headerParams: declarations.params };
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

export function promptWire(p: PromptDefinition): Prompt {
  const args: PromptArgument[] =
    p.arguments ??
    Object.entries(p.args?._zod.def.shape ?? {}).map(([name, schema]) =>
      strip({
        name,
        description: z.globalRegistry.get(schema)?.description,
        required: !z.safeParse(schema, undefined).success,
      }),
    );
  return strip({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: args.length > 0 ? args : undefined,
    icons: p.icons,
    _meta: p._meta,
  });
}

/** Items per page of each list (default 100); throws on a size that is not a positive integer. */
export function pageSizes(
  server: string,
  option: ServerDefinition["pageSize"],
): Record<ListKey, number> {
  const given =
    typeof option === "number"
      ? { tools: option, prompts: option, resources: option, resourceTemplates: option }
      : (option ?? {});
  const sizes = { tools: 100, prompts: 100, resources: 100, resourceTemplates: 100, ...given };
  for (const [list, size] of Object.entries(sizes)) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`Server "${server}": pageSize for ${list} must be a positive integer.`);
  }
  return sizes;
}

/** Drops undefined members so the wire JSON has no `"x": undefined` noise. */
export function strip<T extends JsonObject>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}
