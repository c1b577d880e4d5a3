import { isJsonObject as isObject } from "../../../shared/jsonrpc.ts";
import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";

// What a client declares about itself, read by hand: every request of either era reads it, and
// these lines take and refuse exactly what ClientCapabilitiesSchema and ImplementationSchema do,
// so the envelopes link neither those schemas nor the zod kinds only they use (arrays, enums).

/**
 * A JSON object as `z.record(z.string(), ...)` takes one: a plain object (not a class instance)
 * whose enumerable keys are strings, each value passing `each` (`__proto__` is skipped).
 */
function isRecord(value: unknown, each?: (item: unknown) => boolean): boolean {
  if (!isObject(value)) return false;
  const ctor: unknown = value.constructor;
  const proto: unknown = typeof ctor === "function" ? ctor.prototype : Object.prototype;
  if (!isObject(proto) || !Object.hasOwn(proto, "isPrototypeOf")) return false;
  return Reflect.ownKeys(value).every(
    (key) =>
      key === "__proto__" ||
      !Object.prototype.propertyIsEnumerable.call(value, key) ||
      (typeof key === "string" && (!each || each(value[key]))),
  );
}

/** Whether `value` is absent or passes `check`. */
const optional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);

const isMap = (value: unknown) => isRecord(value, (item) => isRecord(item));

/** An object whose members `a` and `b` are absent or JSON objects; other members pass. */
const hasObjects = (value: unknown, a: string, b: string) =>
  isObject(value) &&
  optional(value[a], (v) => isRecord(v)) &&
  optional(value[b], (v) => isRecord(v));

/** The capabilities as declared (unknown members kept), or undefined when they are malformed. */
export function readCapabilities(value: unknown): ClientCapabilities | undefined {
  return isObject(value) &&
    optional(value.experimental, isMap) &&
    optional(value.extensions, isMap) &&
    optional(value.roots, (v) => isRecord(v)) &&
    optional(value.sampling, (v) => hasObjects(v, "context", "tools")) &&
    optional(value.elicitation, (v) => hasObjects(v, "form", "url"))
    ? value
    : undefined;
}

/** Reads a value: what it stands for, or undefined when it is malformed. */
type Read = (value: unknown) => unknown;

const string: Read = (value) => (typeof value === "string" ? value : undefined);

const list =
  (each: Read): Read =>
  (value) => {
    if (!Array.isArray(value)) return undefined;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = each(value[i]);
      if (item === undefined) return undefined;
      out.push(item);
    }
    return out;
  };

/** An object with `required` members and `optional` ones; other members are dropped. */
const shape = (required: Record<string, Read>, optional: Record<string, Read>): Read => {
  // Listed once, not on every request that reads one.
  const fields = Object.entries({ ...required, ...optional });
  return (value) => {
    if (!isObject(value)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, read] of fields) {
      const given = value[key];
      if (given === undefined && key in optional) continue;
      const item = read(given);
      if (item === undefined) return undefined;
      out[key] = item;
    }
    return out;
  };
};

const icon = shape(
  { src: string },
  {
    mimeType: string,
    sizes: list(string),
    theme: (value) => (value === "light" || value === "dark" ? value : undefined),
  },
);

/** A client's name, version and display details (other members dropped), or undefined. */
export const readImplementation = shape(
  { name: string, version: string },
  { title: string, description: string, websiteUrl: string, icons: list(icon) },
) as (value: unknown) => Implementation | undefined;
