import { isHeaderToken } from "../../shared/protocol/headers.ts";
import { isJsonObject, type JsonObject } from "../../shared/jsonrpc.ts";

/** A tool argument mirrored into an `Mcp-Param-{header}` request header. */
export type HeaderParam = {
  header: string;
  /** Chain of `properties` keys from the argument root to the value. */
  path: string[];
  type: "string" | "integer" | "boolean";
};

// Keywords whose value maps names to schemas; other keywords hold a schema or an array of them.
const SCHEMA_MAPS = ["$defs", "definitions", "patternProperties", "dependentSchemas"];

function subschemas(key: string, value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (SCHEMA_MAPS.includes(key) && isJsonObject(value)) return Object.values(value);
  return [value];
}

/**
 * Collects the `x-mcp-header` annotations of a tool's input schema, and throws when one breaks
 * the transport's rules (clients drop such tools, so it is a bug in the server definition).
 */
export function collectHeaderParams(toolName: string, inputSchema: JsonObject): HeaderParam[] {
  const found: HeaderParam[] = [];
  const fail = (why: string) => new Error(`Tool "${toolName}" has an invalid x-mcp-header: ${why}`);
  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (!isJsonObject(schema)) return;
    const header = schema["x-mcp-header"];
    if (header !== undefined) {
      const where = path.join(".") || "(root)";
      if (!reachable) throw fail(`"${where}" is not reachable through "properties" alone.`);
      if (typeof header !== "string" || !isHeaderToken(header)) {
        throw fail(`"${where}" must name a non-empty HTTP token, got ${JSON.stringify(header)}.`);
      }
      const type = schema.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") {
        throw fail(
          `"${where}" must be a string, integer or boolean property (got ${JSON.stringify(type)}).`,
        );
      }
      if (found.some((p) => p.header.toLowerCase() === header.toLowerCase())) {
        throw fail(`"${header}" is used twice (names are case-insensitive).`);
      }
      found.push({ header, path, type });
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties" && isJsonObject(value)) {
        for (const [prop, child] of Object.entries(value)) visit(child, [...path, prop], reachable);
      } else {
        // Anything below another keyword is not statically reachable, but is still checked.
        for (const child of subschemas(key, value)) visit(child, path, false);
      }
    }
  };
  visit(inputSchema, [], true);
  return found;
}

/** Reads the argument a header mirrors; undefined when absent or null. */
export function readHeaderArgument(args: JsonObject, path: string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isJsonObject(value)) return undefined;
    value = value[key];
  }
  return value ?? undefined;
}
