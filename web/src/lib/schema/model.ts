import { isRecord } from "../json.ts";
import { asSchema, resolveRef, type Schema } from "./resolve.ts";

/** One choice of an enum, a `const`, or a titled `oneOf`/`anyOf` of consts. */
export type Option = { value: unknown; label: string; description?: string };

type Common = {
  title?: string;
  description?: string;
  /** The schema's `default`, when it has one. */
  default?: unknown;
  /** `null` is allowed besides the main type (`type: [T, "null"]`, or a null variant). */
  nullable: boolean;
  deprecated: boolean;
  readOnly: boolean;
  /** Constraints in words: "at least 3 characters", "15 to 240", "format: email". */
  hints: string[];
  /** The field's own schema (resolved), for validating it alone. */
  schema: Schema;
};

/** A variant of a `oneOf`/`anyOf` the user picks from. */
export type Variant = { label: string; model: FieldModel };

/** What a form shows for one schema. */
export type FieldModel = Common &
  (
    | { kind: "string"; format?: string; pattern?: string; multiline: boolean }
    | { kind: "number"; integer: boolean }
    | { kind: "boolean" }
    | { kind: "choice"; options: Option[] }
    | { kind: "multi"; options: Option[] }
    | { kind: "object"; fields: Field[]; open: boolean }
    | { kind: "array"; item: FieldModel }
    | { kind: "variants"; variants: Variant[] }
    | { kind: "json" }
  );

/** A property of an object field. */
export type Field = { name: string; required: boolean; model: FieldModel };

// Deeper than this (recursive schemas), a field is edited as JSON.
const MAX_DEPTH = 10;
const TYPES = ["string", "number", "integer", "boolean", "object", "array"];

function types(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

/** A count's bounds in words: "exactly 2 characters", "3–20 characters", "at most 1 item". */
function countHint(min: number | undefined, max: number | undefined, unit: string) {
  const of = (count: number) => `${count} ${unit}${count === 1 ? "" : "s"}`;
  if (min !== undefined && max !== undefined)
    return min === max ? `exactly ${of(min)}` : `${min}–${max} ${unit}s`;
  if (min !== undefined) return `at least ${of(min)}`;
  return max === undefined ? undefined : `at most ${of(max)}`;
}

function hintsOf(schema: Schema): string[] {
  const hints: string[] = [];
  const n = (key: string) =>
    typeof schema[key] === "number" ? (schema[key] as number) : undefined;
  const length = countHint(n("minLength"), n("maxLength"), "character");
  if (length) hints.push(length);
  // Schema generators bound integers by the safe-integer range (zod's .int() does): a bound
  // that says nothing but "a JavaScript integer" is no hint to a person.
  const bound = (key: string) => {
    const value = n(key);
    return value === undefined || Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value;
  };
  const [min, max, xmin, xmax] = [
    bound("minimum"),
    bound("maximum"),
    bound("exclusiveMinimum"),
    bound("exclusiveMaximum"),
  ];
  if (min !== undefined && max !== undefined) hints.push(`${min} to ${max}`);
  else if (min !== undefined) hints.push(`≥ ${min}`);
  else if (max !== undefined) hints.push(`≤ ${max}`);
  if (xmin !== undefined) hints.push(`> ${xmin}`);
  if (xmax !== undefined) hints.push(`< ${xmax}`);
  if (n("multipleOf") !== undefined) hints.push(`multiple of ${n("multipleOf")}`);
  const items = countHint(n("minItems"), n("maxItems"), "item");
  if (items) hints.push(items);
  // A format says it in a word; its generated pattern (often hundreds of characters) would not.
  if (typeof schema.format === "string") hints.push(`format: ${schema.format}`);
  else if (typeof schema.pattern === "string")
    hints.push(
      `pattern: ${schema.pattern.length > 60 ? `${schema.pattern.slice(0, 57)}…` : schema.pattern}`,
    );
  return hints;
}

function labelOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Options of an `enum` (with legacy `enumNames`), a `const`, or a oneOf/anyOf of consts. */
function optionsOf(schema: Schema): Option[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({
      value,
      label: typeof names[i] === "string" ? names[i] : labelOf(value),
    }));
  }
  if ("const" in schema) return [{ value: schema.const, label: labelOf(schema.const) }];
  const branches = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  if (!branches || branches.length === 0 || !branches.every((b) => isRecord(b) && "const" in b))
    return undefined;
  return branches.map((b) => {
    const branch = asSchema(b);
    return {
      value: branch.const,
      label: typeof branch.title === "string" ? branch.title : labelOf(branch.const),
      ...(typeof branch.description === "string" ? { description: branch.description } : {}),
    };
  });
}

const isNull = (s: unknown) =>
  isRecord(s) &&
  (s.type === "null" ||
    (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null) ||
    s.const === null);

function variantLabel(schema: Schema, index: number): string {
  if (typeof schema.title === "string") return schema.title;
  const props = isRecord(schema.properties) ? schema.properties : {};
  for (const [name, prop] of Object.entries(props))
    if (isRecord(prop) && typeof prop.const === "string") return `${name}: ${prop.const}`;
  const [type] = types(schema);
  return type ? `${type} (option ${index + 1})` : `Option ${index + 1}`;
}

/** Builds the form model of a schema; `root` holds the `$defs` that `$ref`s point into. */
export function fieldModel(raw: unknown, root: Schema, depth = 0): FieldModel {
  const resolved = resolveRef(root, asSchema(raw));
  const schema = resolved ?? {};
  const common: Common = {
    ...(typeof schema.title === "string" ? { title: schema.title } : {}),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    ...("default" in schema ? { default: schema.default } : {}),
    nullable: types(schema).includes("null") || schema.nullable === true,
    deprecated: schema.deprecated === true,
    readOnly: schema.readOnly === true,
    hints: hintsOf(schema),
    schema,
  };
  if (!resolved || depth > MAX_DEPTH) return { ...common, kind: "json" };
  const options = optionsOf(schema);
  if (options) return { ...common, kind: "choice", options };
  const branches = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  if (branches) {
    const rest = branches.filter((b) => !isNull(b));
    const nullable = common.nullable || rest.length < branches.length;
    const { oneOf: _o, anyOf: _a, ...outer } = schema;
    if (rest.length === 1) {
      const inner = fieldModel({ ...outer, ...asSchema(rest[0]) }, root, depth + 1);
      return { ...inner, ...pick(common), nullable };
    }
    const variants = rest.map((b, i) => {
      const merged = { ...outer, ...asSchema(b) };
      const model = fieldModel(merged, root, depth + 1);
      return { label: variantLabel(resolveRef(root, merged) ?? merged, i), model };
    });
    return { ...common, nullable, kind: "variants", variants };
  }
  const kinds = types(schema).filter((t) => TYPES.includes(t));
  const kind = kinds.length === 1 ? kinds[0] : kinds.length === 0 ? inferType(schema) : undefined;
  switch (kind) {
    case "string": {
      const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : 0;
      return {
        ...common,
        kind: "string",
        ...(typeof schema.format === "string" ? { format: schema.format } : {}),
        ...(typeof schema.pattern === "string" ? { pattern: schema.pattern } : {}),
        multiline: maxLength > 200 && schema.format === undefined && schema.pattern === undefined,
      };
    }
    case "number":
    case "integer":
      return { ...common, kind: "number", integer: kind === "integer" };
    case "boolean":
      return { ...common, kind: "boolean" };
    case "array": {
      const items = asSchema(schema.items);
      const itemOptions = optionsOf(resolveRef(root, items) ?? {});
      if (itemOptions && schema.uniqueItems !== false)
        return { ...common, kind: "multi", options: itemOptions };
      return { ...common, kind: "array", item: fieldModel(items, root, depth + 1) };
    }
    case "object": {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const fields = Object.entries(properties).map(([name, prop]) => ({
        name,
        required: required.includes(name),
        model: fieldModel(prop, root, depth + 1),
      }));
      const open = schema.additionalProperties !== false && fields.length === 0;
      return { ...common, kind: "object", fields, open };
    }
    default:
      return { ...common, kind: "json" };
  }
}

function pick(common: Common): Partial<Common> {
  return {
    ...(common.title === undefined ? {} : { title: common.title }),
    ...(common.description === undefined ? {} : { description: common.description }),
    ...("default" in common ? { default: common.default } : {}),
  };
}

function inferType(schema: Schema): string | undefined {
  if (isRecord(schema.properties)) return "object";
  if ("items" in schema) return "array";
  return undefined;
}

/** The model of a tool's `inputSchema` (an object at the root; anything else is edited as JSON). */
export function formModel(inputSchema: Schema): FieldModel {
  return fieldModel(inputSchema, inputSchema);
}
