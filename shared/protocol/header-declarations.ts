import { isJsonObject } from "../jsonrpc.ts";
import { encodeHeaderValue, isHeaderToken } from "./headers.ts";
import type { JsonObject } from "./messages.ts";

const ANNOTATION = "x-mcp-header";

/** The JSON types an argument mirrored in a header may have. */
export type HeaderParamType = "string" | "integer" | "boolean";

/** A tool argument mirrored into an `Mcp-Param-{header}` request header. */
export type HeaderParam = {
  header: string;
  /** Chain of `properties` keys from the argument root to the value. */
  path: readonly string[];
  type: HeaderParamType;
};

/** A tool's header parameters, or why its declarations make it unusable. */
export type HeaderDeclarations =
  { ok: true; params: HeaderParam[] } | { ok: false; reason: string };

// Keywords whose value maps names to subschemas: the names are not keywords themselves.
const SCHEMA_MAPS = new Set(["$defs", "definitions", "patternProperties", "dependentSchemas"]);
// Keywords whose values are data, where an "x-mcp-header" key means nothing.
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

function isHeaderType(type: unknown): type is HeaderParamType {
  return type === "string" || type === "integer" || type === "boolean";
}

/**
 * The `x-mcp-header` declarations of a tool's input schema, or why they break the transport's
 * rules (clients drop such tools; servers refuse to define them): only string, integer and
 * boolean properties reached through `properties` alone may carry one, with an HTTP token for a
 * name, unique regardless of case. Annotations elsewhere in the schema are errors, except inside
 * data (`const`, `enum`, `default`, `examples`), where they are values, not declarations.
 */
export function headerDeclarationsOf(inputSchema: JsonObject): HeaderDeclarations {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  // Returns the first problem found, walking the schema once.
  const visit = (schema: unknown, path: string[], reachable: boolean): string | undefined => {
    if (Array.isArray(schema)) {
      for (const item of schema) {
        const problem = visit(item, path, false);
        if (problem) return problem;
      }
      return undefined;
    }
    if (!isJsonObject(schema)) return undefined;
    const header = schema[ANNOTATION];
    if (header !== undefined) {
      const where = path.join(".") || "(root)";
      if (!reachable || path.length === 0) {
        return `"${where}" is not reachable through "properties" alone`;
      }
      if (typeof header !== "string" || !isHeaderToken(header)) {
        return `"${where}" must name a non-empty HTTP token, got ${JSON.stringify(header)}`;
      }
      const type = schema.type;
      if (!isHeaderType(type)) {
        return `"${where}" must be a string, integer or boolean property (got ${JSON.stringify(type)})`;
      }
      const key = header.toLowerCase();
      if (seen.has(key)) return `"${header}" is used twice (names are case-insensitive)`;
      seen.add(key);
      params.push({ header, path, type });
    }
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === ANNOTATION || DATA_KEYWORDS.has(keyword)) continue;
      if (keyword === "properties" && isJsonObject(value)) {
        for (const [name, child] of Object.entries(value)) {
          const problem = visit(child, [...path, name], reachable);
          if (problem) return problem;
        }
        continue;
      }
      // Anything below another keyword is not statically reachable, but is still checked.
      const problem = visit(
        SCHEMA_MAPS.has(keyword) && isJsonObject(value) ? Object.values(value) : value,
        path,
        false,
      );
      if (problem) return problem;
    }
    return undefined;
  };
  const problem = visit(inputSchema, [], true);
  return problem === undefined ? { ok: true, params } : { ok: false, reason: problem };
}

/** Reads the argument a header mirrors; undefined when absent or null. */
export function headerArgument(args: JsonObject, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const name of path) {
    if (!isJsonObject(value)) return undefined;
    value = value[name];
  }
  return value ?? undefined;
}

/** The header text of one argument, or undefined when it is absent, null or not a primitive. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return encodeHeaderValue(value);
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
    const text = headerText(headerArgument(args, param.path));
    if (text !== undefined) headers[param.header] = text;
  }
  return headers;
}
