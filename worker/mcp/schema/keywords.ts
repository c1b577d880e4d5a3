import type { Folded } from "./checks.ts";

type Json = Record<string, unknown>;

// zod's format names that JSON Schema spells otherwise; a `.regex()` is a pattern, not a format.
const FORMATS: Record<string, string> = {
  guid: "uuid",
  url: "uri",
  datetime: "date-time",
  json_string: "json-string",
  regex: "",
};

/** A string's keywords: lengths, format, encoding, patterns (several: each in an `allOf`). */
export function stringKeywords(folded: Folded, json: Json): void {
  json.type = "string";
  if (folded.minimum !== undefined) json.minLength = folded.minimum;
  if (folded.maximum !== undefined) json.maxLength = folded.maximum;
  const format = folded.format === undefined ? "" : (FORMATS[folded.format] ?? folded.format);
  // `z.iso.time()` is never a full-time, and a local or unprecise date-time is laxer than its format.
  if (format !== "" && folded.format !== "time" && folded.laxFormat !== true) json.format = format;
  if (folded.contentEncoding !== undefined) json.contentEncoding = folded.contentEncoding;
  const patterns = [...(folded.patterns ?? [])];
  if (patterns.length === 1) json.pattern = patterns[0]!.source;
  else if (patterns.length > 1) json.allOf = patterns.map((p) => ({ pattern: p.source }));
}

/** A number's keywords: integer or number, the tighter of each pair of bounds, divisors. */
export function numberKeywords(folded: Folded, json: Json): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = folded;
  json.type = folded.isInt === true ? "integer" : "number";
  if (exclusiveMinimum !== undefined && exclusiveMinimum >= (minimum ?? -Infinity))
    json.exclusiveMinimum = exclusiveMinimum;
  else if (minimum !== undefined) json.minimum = minimum;
  if (exclusiveMaximum !== undefined && exclusiveMaximum <= (maximum ?? Infinity))
    json.exclusiveMaximum = exclusiveMaximum;
  else if (maximum !== undefined) json.maximum = maximum;
  // JSON Schema wants a positive finite divisor; a negative one accepts what its absolute value
  // does, and 0, NaN or Infinity have no JSON Schema form (zod's converter leaves them out too).
  const divisors = new Set(
    (folded.multipleOf ?? []).filter((d) => Number.isFinite(d) && d !== 0).map(Math.abs),
  );
  const [first, ...rest] = divisors;
  if (first !== undefined) json.multipleOf = first;
  if (rest.length > 0) json.allOf = rest.map((d) => ({ multipleOf: d }));
}
