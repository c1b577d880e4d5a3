import { isRecord } from "../json.ts";

/** A JSON Schema object (booleans are read as `{}` and `{ not: {} }`). */
export type Schema = Record<string, unknown>;

function pointer(root: Schema, ref: string): unknown {
  let current: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    current = isRecord(current) ? current[key] : undefined;
  }
  return current;
}

function anchor(node: unknown, name: string, depth = 0): Schema | undefined {
  if (!isRecord(node) || depth > 32) return undefined;
  if (node.$anchor === name) return node;
  for (const child of Object.values(node)) {
    const found = Array.isArray(child)
      ? child.map((c) => anchor(c, name, depth + 1)).find(Boolean)
      : anchor(child, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A schema value as an object schema. */
export function asSchema(value: unknown): Schema {
  if (value === false) return { not: {} };
  return isRecord(value) ? value : {};
}

/**
 * Follows a local `$ref` (`#/$defs/x`, `#/definitions/x` or `#anchor`) within `root`; the
 * referring schema's own keywords (title, description, default) win over the target's. Remote
 * references are never fetched: they resolve to undefined.
 */
export function resolveRef(
  root: Schema,
  schema: Schema,
  seen: readonly string[] = [],
): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  if (seen.includes(ref) || seen.length > 16) return undefined;
  const target =
    ref === "#"
      ? root
      : ref.startsWith("#/")
        ? pointer(root, ref)
        : ref.startsWith("#")
          ? anchor(root, ref.slice(1))
          : undefined;
  if (!isRecord(target)) return undefined;
  const { $ref: _ref, ...siblings } = schema;
  const resolved = resolveRef(root, target, [...seen, ref]);
  return resolved && { ...resolved, ...siblings };
}
