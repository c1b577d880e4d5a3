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

type CheckDef = z.core.$ZodChecks["_zod"]["def"];

// The bounds zod gives each number format (read from zod's util, its whole util would be linked).
const RANGES: Record<z.core.$ZodNumberFormats, [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

const atLeast = (folded: Folded, key: "minimum" | "exclusiveMinimum", value: number) => {
  const current = folded[key];
  if (current === undefined || value > current) folded[key] = value;
};
const atMost = (folded: Folded, key: "maximum" | "exclusiveMaximum", value: number) => {
  const current = folded[key];
  if (current === undefined || value < current) folded[key] = value;
};
const divisor = (folded: Folded, value: number) => {
  folded.multipleOf ??= [];
  if (!folded.multipleOf.includes(value)) folded.multipleOf.push(value);
};
const pattern = (folded: Folded, value: RegExp) => (folded.patterns ??= new Set()).add(value);
const format = (folded: Folded, value: string) => {
  folded.format = value;
  if (value.includes("int")) folded.isInt = true;
};

/**
 * Folds the checks of a string, number or array schema (a format schema is its own first check)
 * and what checks left in its bag: the tightest bounds, the last format, every pattern.
 */
export function foldChecks(schema: z.core.$ZodType): Folded {
  const folded: Folded = {};
  const own = schema._zod.def.checks ?? [];
  const checks = schema._zod.traits.has("$ZodCheck") ? [schema, ...own] : own;
  for (const check of checks) {
    const def = (check as z.core.$ZodChecks)._zod.def;
    foldOne(folded, def);
  }
  const bag: Record<string, unknown> = schema._zod.bag;
  if (typeof bag.minimum === "number") atLeast(folded, "minimum", bag.minimum);
  if (typeof bag.exclusiveMinimum === "number")
    atLeast(folded, "exclusiveMinimum", bag.exclusiveMinimum);
  if (typeof bag.maximum === "number") atMost(folded, "maximum", bag.maximum);
  if (typeof bag.exclusiveMaximum === "number")
    atMost(folded, "exclusiveMaximum", bag.exclusiveMaximum);
  if (typeof bag.multipleOf === "number") divisor(folded, bag.multipleOf);
  if (typeof bag.format === "string") {
    folded.format ??= bag.format;
    if (bag.format.includes("int")) folded.isInt = true;
  }
  if (bag.patterns instanceof Set) for (const p of bag.patterns as Set<RegExp>) pattern(folded, p);
  return folded;
}

function foldOne(folded: Folded, def: CheckDef): void {
  switch (def.check) {
    case "greater_than":
      return atLeast(folded, def.inclusive ? "minimum" : "exclusiveMinimum", Number(def.value));
    case "less_than":
      return atMost(folded, def.inclusive ? "maximum" : "exclusiveMaximum", Number(def.value));
    case "multiple_of":
      return divisor(folded, Number(def.value));
    case "number_format": {
      format(folded, def.format);
      const [min, max] = RANGES[def.format];
      atLeast(folded, "minimum", min);
      return atMost(folded, "maximum", max);
    }
    case "min_length":
      return atLeast(folded, "minimum", def.minimum);
    case "max_length":
      return atMost(folded, "maximum", def.maximum);
    case "length_equals":
      atLeast(folded, "minimum", def.length);
      return atMost(folded, "maximum", def.length);
    case "string_format":
      format(folded, def.format);
      if (def.pattern) pattern(folded, exactPattern(def));
      if (def.format === "base64" || def.format === "base64url")
        folded.contentEncoding = def.format;
      if (Reflect.get(def, "local") === true || Reflect.get(def, "precision") === -1)
        folded.laxFormat = true;
      return;
  }
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

function exactPattern(def: { format: string; pattern?: RegExp | undefined }): RegExp {
  const own = def.pattern as RegExp;
  const lax = LAX_BASE64[def.format];
  return lax !== undefined && lax[0] === own.source ? lax[1] : own;
}
