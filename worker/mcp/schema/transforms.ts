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
  if (def.type === "transform" || schema._zod.traits.has("$ZodCodec")) return true;
  // The schemas inside each kind, read by their names; zod's converter leaves z.success() out.
  const inner = (def.type === "success" ? {} : def) as Partial<Record<string, unknown>>;
  const children =
    def.type === "lazy"
      ? [def.getter()]
      : [
          inner.innerType,
          inner.element,
          inner.keyType,
          inner.valueType,
          inner.left,
          inner.right,
          inner.in,
          inner.out,
          inner.rest,
          ...((inner.options ?? inner.items ?? []) as unknown[]),
          ...Object.values(inner.shape ?? {}),
        ];
  return children.some((child) => child != null && isTransforming(child as z.core.$ZodType, seen));
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
