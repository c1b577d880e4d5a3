import { isJsonObject as isObject } from "../jsonrpc.ts";

// The pieces the runtime's hand-written checks are built of (content blocks in content-check.ts,
// what a client declares in worker/mcp/era/declared.ts): each takes and refuses exactly what the
// protocol's zod schemas do, so a Worker checks those values without linking the zod kinds only
// the schemas use. A check only looks; it keeps or drops nothing.

/** A problem: where (a path below the value checked) and what is wrong. */
export type Problem = [path: string, words: string];
/** What is wrong with a value, or undefined when it passes. */
export type Check = (value: unknown) => Problem | undefined;

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

export const is =
  (test: (value: unknown) => boolean, words: string): Check =>
  (value) =>
    test(value) ? undefined : ["", words];

/** Absent (undefined) or passing `check`. */
export const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined ? undefined : check(value);

export const oneOf = (...allowed: unknown[]) =>
  is((value) => allowed.includes(value), `expected one of ${JSON.stringify(allowed)}`);

export const string = is((value) => typeof value === "string", "expected a string");

/** Any JSON object (`JsonObjectSchema`). */
export const record = is((value) => isRecord(value), "expected a JSON object");

/** An array whose every item passes `check`; a hole is an undefined item. */
export function arrayOf(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return ["", "expected an array"];
    for (let i = 0; i < value.length; i++) {
      const problem = check(value[i]);
      if (problem) return [`[${i}]${problem[0]}`, problem[1]];
    }
    return undefined;
  };
}

/** An object (a class instance too, as zod's objects take one) whose `fields` pass. */
export function object(fields: Record<string, Check>): Check {
  return (value) => {
    if (!isObject(value)) return ["", "expected an object"];
    for (const [name, check] of Object.entries(fields)) {
      const problem = check(value[name]);
      if (problem) return [`.${name}${problem[0]}`, problem[1]];
    }
    return undefined;
  };
}

/** An icon's members, as IconSchema names them. */
export const ICON_FIELDS: Record<string, Check> = {
  src: string,
  mimeType: optional(string),
  sizes: optional(arrayOf(string)),
  theme: optional(oneOf("light", "dark")),
};
