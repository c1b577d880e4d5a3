import { isJsonObject as isObject } from "../jsonrpc.ts";

// The pieces the runtime's hand-written checks are built of (content blocks in content-check.ts,
// what a client declares in worker/mcp/era/declared.ts, the params of every server's methods in
// worker/mcp/methods/params.ts): each takes and refuses exactly what the protocol's zod schemas
// do, so a Worker checks those values without linking the zod kinds only the schemas use. A check
// only looks; it keeps or drops nothing.

/** What is wrong, one `path: words` a problem, in the order zod finds them. */
export type Problems = string[];
/** Adds what is wrong with `value`, found at `path`, to `problems`. */
export type Check = (value: unknown, path: string, problems: Problems) => void;
/** What a check says of a value it refuses: the same words for any, or words about the value. */
type Words = string | ((value: unknown) => string);

/** The problems `check` finds in `value`, their paths below `path` (none: it passes). */
export function problemsOf(check: Check, value: unknown, path = ""): Problems {
  const problems: Problems = [];
  check(value, path, problems);
  return problems;
}

/** A plain object, as a zod record takes one (not a Date, a Map or a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor: unknown = value.constructor;
  if (typeof ctor !== "function") return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.hasOwn(proto, "isPrototypeOf");
}

/**
 * A JSON object as `z.record(z.string(), ...)` takes one: a plain object (not a class instance)
 * whose enumerable keys are strings, each value passing `each` (`__proto__` is skipped).
 */
export function isRecord(value: unknown, each?: (item: unknown) => boolean): boolean {
  return (
    isPlainObject(value) &&
    Reflect.ownKeys(value).every(
      (key) =>
        key === "__proto__" ||
        !Object.prototype.propertyIsEnumerable.call(value, key) ||
        (typeof key === "string" && (!each || each(value[key]))),
    )
  );
}

/** Passes what `test` passes; refuses the rest, saying `words`. */
export const is =
  (test: (value: unknown) => boolean, words: Words): Check =>
  (value, path, problems) => {
    if (!test(value)) problems.push(`${path}: ${typeof words === "string" ? words : words(value)}`);
  };

/** Absent (undefined) or passing `check`. */
export const optional =
  (check: Check): Check =>
  (value, path, problems) => {
    if (value !== undefined) check(value, path, problems);
  };

export const oneOf = (...allowed: unknown[]) =>
  is((value) => allowed.includes(value), `expected one of ${JSON.stringify(allowed)}`);

export const string = is((value) => typeof value === "string", "expected a string");

/** Any JSON object (`JsonObjectSchema`). */
export const record = is((value) => isRecord(value), "expected a JSON object");

/**
 * An array whose every item passes `check`; a hole is an undefined item. Only the first item
 * that fails is said, so a long list costs one problem, not one an item.
 */
export function arrayOf(check: Check): Check {
  return (value, path, problems) => {
    if (!Array.isArray(value)) problems.push(`${path}: expected an array`);
    else
      for (let i = 0, given = problems.length; i < value.length && problems.length === given; i++)
        check(value[i], `${path}[${i}]`, problems);
  };
}

/**
 * An object (a class instance too, as zod's objects take one, but not an array) whose `fields`
 * pass; unknown members pass too. Anything else is refused with `words`.
 */
export function object(fields: Record<string, Check>, words: Words = "expected an object"): Check {
  const shape = is(isObject, words);
  return (value, path, problems) => {
    if (!isObject(value)) shape(value, path, problems);
    else
      for (const [name, check] of Object.entries(fields))
        check(value[name], `${path}.${name}`, problems);
  };
}

/** An icon's members, as IconSchema names them. */
export const ICON_FIELDS: Record<string, Check> = {
  src: string,
  mimeType: optional(string),
  sizes: optional(arrayOf(string)),
  theme: optional(oneOf("light", "dark")),
};
