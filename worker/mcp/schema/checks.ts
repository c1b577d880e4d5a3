import type * as z from "zod/mini";

/** What a schema's checks say about it, folded the way zod's JSON Schema converter folds them. */
export type Folded = {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number[];
  format?: string;
  isInt?: boolean;
  patterns?: Set<RegExp>;
  contentEncoding?: string;
  laxFormat?: boolean;
};

// The bounds zod gives each number format (read from zod's util, its whole util would be linked).
const RANGES: Record<z.core.$ZodNumberFormats, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

type Bound = "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum";

/** Keeps the tighter of a bound and `value`: the higher minimum, the lower maximum. */
function bound(folded: Folded, key: Bound, value: number): void {
  const current = folded[key];
  if (current === undefined || (key.includes("in") ? value > current : value < current))
    folded[key] = value;
}

/**
 * Folds the checks of a string, number or array schema (a format schema is its own first check)
 * and what checks left in its bag: the tightest bounds, the last format, every pattern.
 */
export function foldChecks(schema: z.core.$ZodType): Folded {
  const own = schema._zod.def.checks ?? [];
  const checks = schema._zod.traits.has("$ZodCheck") ? [schema, ...own] : own;
  const bag: Record<string, unknown> = schema._zod.bag;
  // A schema without checks (a plain z.string()) folds to nothing: the fold is compiled only by
  // an isolate whose schemas have some.
  if (checks.length === 0 && Object.keys(bag).length === 0) return {};
  return fold(checks, bag);
}

function fold(
  checks: readonly (z.core.$ZodType | z.core.$ZodCheck<never>)[],
  bag: Record<string, unknown>,
): Folded {
  const folded: Folded = {};
  const divisor = (value: number) => {
    folded.multipleOf ??= [];
    if (!folded.multipleOf.includes(value)) folded.multipleOf.push(value);
  };
  const pattern = (value: RegExp) => (folded.patterns ??= new Set()).add(value);
  for (const check of checks) {
    const def = (check as z.core.$ZodChecks)._zod.def;
    switch (def.check) {
      case "greater_than":
        bound(folded, def.inclusive ? "minimum" : "exclusiveMinimum", Number(def.value));
        break;
      case "less_than":
        bound(folded, def.inclusive ? "maximum" : "exclusiveMaximum", Number(def.value));
        break;
      case "multiple_of":
        divisor(Number(def.value));
        break;
      case "min_length":
        bound(folded, "minimum", def.minimum);
        break;
      case "max_length":
        bound(folded, "maximum", def.maximum);
        break;
      case "length_equals":
        bound(folded, "minimum", def.length);
        bound(folded, "maximum", def.length);
        break;
      case "number_format":
      case "string_format":
        folded.format = def.format;
        if (def.format.includes("int")) folded.isInt = true;
        if (def.check === "number_format") {
          const [min, max] = RANGES[def.format];
          bound(folded, "minimum", min);
          bound(folded, "maximum", max);
          break;
        }
        if (def.pattern) {
          const lax = LAX_BASE64[def.format];
          pattern(lax?.[0] === def.pattern.source ? lax[1] : def.pattern);
        }
        if (def.format === "base64" || def.format === "base64url")
          folded.contentEncoding = def.format;
        if (Reflect.get(def, "local") === true || Reflect.get(def, "precision") === -1)
          folded.laxFormat = true;
    }
  }
  for (const key of ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"] as const) {
    const value = bag[key];
    if (typeof value === "number") bound(folded, key, value);
  }
  if (typeof bag.multipleOf === "number") divisor(bag.multipleOf);
  if (typeof bag.format === "string") {
    folded.format ??= bag.format;
    if (bag.format.includes("int")) folded.isInt = true;
  }
  if (bag.patterns instanceof Set) for (const p of bag.patterns as Set<RegExp>) pattern(p);
  return folded;
}

// zod validates base64 with a lax character set (no backtracking) and publishes the exact
// pattern; its converter writes the exact one, and so does this.
const LAX_BASE64: Record<string, [string, RegExp]> = {
  base64: [
    "^[0-9a-zA-Z+/]*={0,2}$",
    /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/,
  ],
  base64url: ["^[A-Za-z0-9_-]*$", /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/],
};
