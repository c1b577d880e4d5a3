import type * as z from "zod/mini";

/**
 * Whether a schema transforms somewhere inside (its output is not its input), as zod's converter
 * decides it: then a default or example describes the output, not what the client sends.
 */
export function isTransforming(
  schema: z.core.$ZodType,
  seen = new Set<z.core.$ZodType>(),
): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as z.core.$ZodTypes)._zod.def;
  const any = (...schemas: (z.core.$ZodType | undefined)[]) =>
    schemas.some((s) => s !== undefined && isTransforming(s, seen));
  switch (def.type) {
    case "transform":
      return true;
    case "array":
      return any(def.element);
    case "set":
      return any(def.valueType);
    case "lazy":
      return any(def.getter());
    case "promise":
    case "optional":
    case "nonoptional":
    case "nullable":
    case "readonly":
    case "default":
    case "prefault":
    case "catch":
      return any(def.innerType);
    case "intersection":
      return any(def.left, def.right);
    case "record":
    case "map":
      return any(def.keyType, def.valueType);
    case "pipe":
      return schema._zod.traits.has("$ZodCodec") || any(def.in, def.out);
    case "object":
      for (const key in def.shape) if (any(def.shape[key])) return true;
      return false;
    case "union":
      return any(...def.options);
    case "tuple":
      return any(...def.items, def.rest ?? undefined);
    default:
      return false;
  }
}

/**
 * Whether a property may be left out on input. A transform or catch lets the parser see an
 * absent key, but the declared input stays required: the schema that decides is past them.
 */
export function inputOptin(schema: z.core.$ZodType): string | undefined {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) return inputOptin(def.out);
  if (def.type === "catch") return inputOptin(def.innerType);
  return schema._zod.optin;
}
