import { isRecord } from "../json.ts";
import type { FieldModel, Variant } from "./model.ts";

/**
 * The value a new field starts with: its default; for an object, the members that have one
 * (and required objects, built the same way); otherwise nothing (undefined: left out). An
 * optional list starts left out whatever its default: the server applies its own default, and
 * an empty list sent in its place is a choice the person did not make.
 */
export function initialValue(model: FieldModel, required = true): unknown {
  if (!required && (model.kind === "array" || model.kind === "multi")) return undefined;
  if ("default" in model) return structuredClone(model.default);
  if (model.kind === "object") {
    if (!required) return undefined;
    const value: Record<string, unknown> = {};
    for (const field of model.fields) {
      const child = initialValue(field.model, field.required);
      if (child !== undefined) value[field.name] = child;
    }
    return value;
  }
  if (model.kind === "variants" && required) return switchVariant(model.variants[0]!);
  return undefined;
}

/** A new array item: the item's initial value, or an empty value of its kind. */
export function newItem(item: FieldModel): unknown {
  const initial = initialValue(item, true);
  if (initial !== undefined) return initial;
  switch (item.kind) {
    case "string":
      return "";
    case "number":
      return 0;
    case "boolean":
      return false;
    case "choice":
      return item.options[0]?.value ?? null;
    case "array":
    case "multi":
      return [];
    default:
      return {};
  }
}

function typeMatches(model: FieldModel, value: unknown): boolean {
  switch (model.kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
    case "multi":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    case "choice":
      return model.options.some((o) => JSON.stringify(o.value) === JSON.stringify(value));
    default:
      return false;
  }
}

/** Members whose schema is a `const`: how an object variant names itself (`kind: "room"`). */
function discriminators(model: FieldModel): [string, unknown][] {
  if (model.kind !== "object") return [];
  return model.fields.flatMap((f) =>
    f.model.kind === "choice" && f.model.options.length === 1
      ? [[f.name, f.model.options[0]!.value] as [string, unknown]]
      : [],
  );
}

/**
 * Which variant a value is: the first whose discriminating consts it carries, else the first
 * of its type, else the first.
 */
export function variantIndex(variants: readonly Variant[], value: unknown): number {
  if (isRecord(value)) {
    const byConst = variants.findIndex((v) => {
      const consts = discriminators(v.model);
      return (
        consts.length > 0 &&
        consts.every(([name, c]) => JSON.stringify(value[name]) === JSON.stringify(c))
      );
    });
    if (byConst !== -1) return byConst;
  }
  const byType = variants.findIndex((v) => typeMatches(v.model, value));
  return byType === -1 ? 0 : byType;
}

/** The value a field holds after switching to variant `to`: its initial value, consts filled. */
export function switchVariant(variant: Variant): unknown {
  const value = newItem(variant.model);
  if (!isRecord(value)) return value;
  for (const [name, c] of discriminators(variant.model)) value[name] = c;
  return value;
}
