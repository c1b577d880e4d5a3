import * as z from "zod/mini";
import { foldChecks } from "./checks.ts";
import { compact } from "./compact.ts";
import { numberKeywords, stringKeywords } from "./keywords.ts";
import { inputOptin, isTransforming } from "./transforms.ts";

type Json = Record<string, unknown>;
type Io = "input" | "output";
type Def = z.core.$ZodTypes["_zod"]["def"];

/** A zod schema the writer does not cover: what it is, and where it sits in the root schema. */
export class UncoveredSchema extends Error {
  /** What the schema is and where, e.g. `z.date() at .when`. */
  readonly where: string;

  constructor(what: string, at: string) {
    const where = at === "" ? what : `${what} at ${at}`;
    super(
      `${where} is not covered by edgemcp's JSON Schema writer; write the JSON Schema by hand, or derive it with zod's z.toJSONSchema.`,
    );
    this.where = where;
  }
}

/**
 * The JSON Schema (2020-12) of a zod schema, without `$schema`, in compact form: for the types
 * tools and prompts use, exactly what zod's converter writes with `unrepresentable: "any"` and
 * `compact` (the differential test holds the two together). Anything else (recursion, `z.lazy`,
 * intersections, tuples, dates, custom types, what zod can only call "any") throws an
 * UncoveredSchema rather than guess.
 */
export function writeJsonSchema(schema: z.core.$ZodType, io: Io): Json {
  // As zod does: what JSON cannot carry (undefined, functions in metadata) is dropped.
  return JSON.parse(JSON.stringify(write(schema, io, [], ""))) as Json;
}

function write(schema: z.core.$ZodType, io: Io, stack: z.core.$ZodType[], at: string): Json {
  if (stack.includes(schema)) throw new UncoveredSchema("a recursive schema", at);
  if (Reflect.get(schema._zod, "toJSONSchema") !== undefined)
    throw new UncoveredSchema("a schema with its own toJSONSchema", at);
  const inner = (child: z.core.$ZodType, path = at) => write(child, io, [...stack, schema], path);
  const def = (schema as z.core.$ZodTypes)._zod.def;
  // Without a prototype, a member named `__proto__` (a property, a metadata key) is one too.
  const own = Object.create(null) as Json;
  const base = node(schema, def, io, own, inner, at);
  const meta = z.globalRegistry.get(schema);
  if (meta !== undefined) {
    if (meta.id !== undefined) throw new UncoveredSchema("a schema with an id (.meta({ id }))", at);
    Object.assign(own, meta);
  }
  // A default or example describes the output of a transform, not what the client sends (the
  // walk is made only for a schema that has one).
  const described = own.examples !== undefined || own.default !== undefined;
  if (io === "input" && described && isTransforming(schema)) {
    delete own.examples;
    delete own.default;
  }
  if (def.type === "prefault" && io === "input") own.default ??= jsonValue(def.defaultValue, at);
  // A wrapper's own keywords come first and win; the wrapped schema's follow.
  if (base !== undefined)
    for (const key of Object.keys(base)) if (!(key in own)) own[key] = base[key];
  compact(def, own);
  return own.anyOf === undefined ? own : compactUnion(own);
}

/**
 * Writes a schema's own keywords into `own`; for a wrapper (optional, default, pipe...), returns
 * the JSON Schema of the schema it stands for instead.
 */
function node(
  schema: z.core.$ZodType,
  def: Def,
  io: Io,
  own: Json,
  inner: (child: z.core.$ZodType, path?: string) => Json,
  at: string,
): Json | undefined {
  switch (def.type) {
    case "string":
      return void stringKeywords(foldChecks(schema), own);
    case "number":
      return void numberKeywords(foldChecks(schema), own);
    case "boolean":
    case "null":
      return void (own.type = def.type);
    case "any":
    case "unknown":
      return;
    case "array": {
      const { minimum, maximum } = foldChecks(schema);
      if (minimum !== undefined) own.minItems = minimum;
      if (maximum !== undefined) own.maxItems = maximum;
      own.type = "array";
      return void (own.items = inner(def.element, `${at}[]`));
    }
    case "object": {
      if (Object.getOwnPropertySymbols(def.shape).length > 0)
        throw new UncoveredSchema("an object with symbol keys", at);
      own.type = "object";
      const properties = Object.create(null) as Json;
      own.properties = properties;
      for (const key in def.shape) properties[key] = inner(def.shape[key]!, `${at}.${key}`);
      const required = Object.keys(def.shape).filter((key) =>
        io === "input"
          ? inputOptin(def.shape[key]!) === undefined
          : def.shape[key]!._zod.optout === undefined,
      );
      if (required.length > 0) own.required = required;
      const rest = def.catchall;
      if (rest === undefined) {
        if (io === "output") own.additionalProperties = false;
      } else {
        own.additionalProperties = rest._zod.def.type === "never" ? false : inner(rest, `${at}.*`);
      }
      return;
    }
    case "nullable":
      return void (own.anyOf = [inner(def.innerType), { type: "null" }]);
    case "optional":
    case "nonoptional":
    case "prefault":
      return inner(def.innerType);
    default:
      return otherNode(schema, def, io, own, inner, at);
  }
}

/** The kinds tool inputs use less often, apart: each new isolate compiles only what it runs. */
function otherNode(
  schema: z.core.$ZodType,
  def: Def,
  io: Io,
  own: Json,
  inner: (child: z.core.$ZodType, path?: string) => Json,
  at: string,
): Json | undefined {
  switch (def.type) {
    case "never":
      return void (own.not = {});
    case "template_literal":
      own.type = "string";
      return void (own.pattern = (schema as z.core.$ZodTemplateLiteral)._zod.pattern.source);
    case "enum": {
      // A TypeScript numeric enum also maps each number back to its name.
      const entries = Object.entries(def.entries);
      const numbers = entries.map(([, v]) => v).filter((v) => typeof v === "number");
      const values = entries.filter(([key]) => !numbers.includes(+key)).map(([, v]) => v);
      return void choices(values, own);
    }
    case "literal":
      for (const value of def.values)
        if (value === undefined || typeof value === "bigint")
          throw new UncoveredSchema(`a literal ${typeof value}`, at);
      return void choices(def.values as (string | number | boolean | null)[], own, true);
    case "union": {
      const options = def.options.map((option, i) => inner(option, `${at}|${i}`));
      return void (own[def.inclusive === false ? "oneOf" : "anyOf"] = options);
    }
    case "record": {
      own.type = "object";
      const key = def.keyType;
      if (Reflect.get(def, "mode") === "loose" && foldChecks(key).patterns !== undefined)
        throw new UncoveredSchema("z.looseRecord() with a key pattern", at);
      const names = inner(key, `${at}{}`);
      if (numeric(names)) throw new UncoveredSchema("z.record() with number keys", at);
      own.propertyNames = names;
      own.additionalProperties = inner(def.valueType, `${at}.*`);
      const values = key._zod.values;
      const omittable = io === "input" && inputOptin(def.valueType) !== undefined;
      if (values !== undefined && Reflect.get(def, "partial") !== true && !omittable) {
        const keys = [...values].filter((v) => typeof v === "string" || typeof v === "number");
        if (keys.length > 0) own.required = keys.map(String);
      }
      return;
    }
    case "readonly":
      own.readOnly = true;
      return inner(def.innerType);
    case "default":
      own.default = jsonValue(def.defaultValue, at);
      return inner(def.innerType);
    case "pipe":
      // The client sends what goes into a pipe; a tool returns what comes out of it.
      return inner(io === "input" && !def.in._zod.traits.has("$ZodTransform") ? def.in : def.out);
    default:
      throw new UncoveredSchema(`z.${def.type}()`, at);
  }
}

/** Whether a key schema admits numbers, which zod's converter rewrites as numeric strings. */
function numeric(json: Json): boolean {
  const types: unknown[] = Array.isArray(json.type) ? json.type : [json.type];
  const values = Array.isArray(json.enum) ? json.enum : [json.const];
  return (
    types.includes("number") ||
    types.includes("integer") ||
    values.some((v) => typeof v === "number") ||
    [json.anyOf, json.oneOf].some((branches) => Array.isArray(branches) && branches.some(numeric))
  );
}

/** An enum's or a literal's values: one literal is a `const`. */
function choices(values: (string | number | boolean | null)[], own: Json, literal = false): void {
  const kinds = values.map((v) => (v === null ? "null" : typeof v));
  if (values.length === 0) return void (own.not = {});
  if (literal && values.length === 1) {
    own.type = kinds[0];
    return void (own.const = values[0]);
  }
  for (const type of ["number", "string", "boolean", "null"])
    if ((literal || type === "number" || type === "string") && kinds.every((k) => k === type))
      own.type = type;
  own.enum = values;
}

/** A default as JSON: what `JSON.stringify` makes of it; a bigint has no JSON form. */
function jsonValue(value: unknown, at: string): unknown {
  let bigint = false;
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? ((bigint = true), null) : v,
  );
  if (bigint) throw new UncoveredSchema("a bigint default", at);
  return JSON.parse(text) as unknown;
}

/** `anyOf` of bare types is one `type` list, as zod writes it: `{"type": ["string", "null"]}`. */
function compactUnion(json: Json): Json {
  const options = json.anyOf;
  if (!Array.isArray(options) || options.length === 0 || json.type !== undefined) return json;
  const types: unknown[] = [];
  for (const option of options as Json[]) {
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== "type") return json;
    for (const type of Array.isArray(option.type) ? option.type : [option.type]) {
      if (typeof type !== "string") return json;
      if (!types.includes(type)) types.push(type);
    }
  }
  delete json.anyOf;
  json.type = types.length === 1 ? types[0] : types;
  return json;
}
