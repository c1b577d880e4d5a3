import * as z from "zod";
import { encodeHeaderValue, isHeaderToken } from "../protocol/headers.ts";

const ANNOTATION = "x-mcp-header";
const HEADER_TYPES = ["string", "integer", "boolean"] as const;

/** One tool argument mirrored in an `Mcp-Param-{header}` header. */
export type HeaderParam = { header: string; path: readonly string[] };

/** A tool's header parameters, or why its declarations make it unusable. */
export type HeaderDeclarations =
  { ok: true; params: HeaderParam[] } | { ok: false; reason: string };

const SchemaObject = z.record(z.string(), z.unknown());
// Keywords whose value maps names to subschemas: the names are not keywords themselves.
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
// Keywords whose values are data, where an "x-mcp-header" key means nothing.
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/** Counts every `x-mcp-header` annotation anywhere in a schema. */
function countAnnotations(schema: unknown): number {
  if (Array.isArray(schema))
    return schema.reduce<number>((n, item) => n + countAnnotations(item), 0);
  const object = SchemaObject.safeParse(schema);
  if (!object.success) return 0;
  let count = 0;
  for (const [keyword, value] of Object.entries(object.data)) {
    if (keyword === ANNOTATION) count += 1;
    else if (DATA_KEYWORDS.has(keyword)) continue;
    else if (SCHEMA_MAPS.has(keyword)) {
      const map = SchemaObject.safeParse(value);
      if (map.success) for (const sub of Object.values(map.data)) count += countAnnotations(sub);
    } else count += countAnnotations(value);
  }
  return count;
}

/** Collects the annotations reached purely through `properties`, checking each one. */
function collect(
  schema: Record<string, unknown>,
  path: string[],
  out: HeaderParam[],
): string | undefined {
  const properties = SchemaObject.safeParse(schema.properties);
  if (!properties.success) return undefined;
  for (const [name, value] of Object.entries(properties.data)) {
    const property = SchemaObject.safeParse(value);
    if (!property.success) continue;
    const header = property.data[ANNOTATION];
    const where = [...path, name].join(".");
    if (header !== undefined) {
      if (typeof header !== "string" || !isHeaderToken(header)) {
        return `property "${where}" has an x-mcp-header that is not an HTTP token`;
      }
      const type = property.data.type;
      if (!HEADER_TYPES.some((allowed) => allowed === type)) {
        return `property "${where}" mirrors a header but is not a string, integer or boolean`;
      }
      out.push({ header, path: [...path, name] });
    }
    const nested = collect(property.data, [...path, name], out);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * The `x-mcp-header` declarations of a tool's input schema, or why they are invalid (then the
 * tool must be dropped): only string, integer and boolean properties reached through
 * `properties` may carry one, with a token for a name, unique regardless of case.
 */
export function headerDeclarationsOf(inputSchema: Record<string, unknown>): HeaderDeclarations {
  const params: HeaderParam[] = [];
  const problem = collect(inputSchema, [], params);
  if (problem) return { ok: false, reason: problem };
  if (countAnnotations(inputSchema) !== params.length) {
    return { ok: false, reason: "an x-mcp-header sits outside plain properties" };
  }
  const names = params.map((param) => param.header.toLowerCase());
  if (new Set(names).size !== names.length) {
    return { ok: false, reason: "two properties declare the same x-mcp-header" };
  }
  return { ok: true, params };
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const name of path) {
    const object = SchemaObject.safeParse(value);
    if (!object.success) return undefined;
    value = object.data[name];
  }
  return value;
}

/** The header text of one argument, or undefined when it is absent, null or not a primitive. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? "=?base64??=" : encodeHeaderValue(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** `Mcp-Param-*` values (by header suffix) for a call's arguments. */
export function paramHeaderValues(
  params: readonly HeaderParam[],
  args: Record<string, unknown>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const text = headerText(valueAt(args, param.path));
    if (text !== undefined) headers[param.header] = text;
  }
  return headers;
}
