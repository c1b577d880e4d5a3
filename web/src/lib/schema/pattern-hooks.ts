import { format } from "@cfworker/json-schema";
import { getAt, isRecord } from "../json.ts";
import { PATTERN_BUDGET_MS, patternVerdict } from "./patterns.ts";
import type { Schema } from "./resolve.ts";

// A pattern becomes a format of this name, which the validator asks about each value it tests.
const PREFIX = "edgemcp-pattern:";
// Keywords whose values are data, not schemas: a "pattern" inside them is no keyword.
const DATA = new Set(["const", "enum", "default", "examples"]);

/** A pattern's test: passes until its verdict is known; a match passes. */
function hook(pattern: string): (text: string) => boolean {
  return (text) => {
    const verdict = patternVerdict(pattern, text);
    return verdict === "match" || verdict === "pending" || verdict === "invalid";
  };
}

function compiles(pattern: string): boolean {
  try {
    // Compiling reads the pattern once; only running it can take without end.
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** Turns a patternProperties pattern into one that names the value's keys it matches. */
type KeyPatterns = (pattern: string) => string;

function hooked(node: unknown, keyPatterns: KeyPatterns): unknown {
  if (Array.isArray(node)) return node.map((n) => hooked(n, keyPatterns));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    out[key] = DATA.has(key) ? value : hooked(value, keyPatterns);
  if (isRecord(node.patternProperties) && isRecord(out.patternProperties))
    out.patternProperties = Object.fromEntries(
      Object.entries(out.patternProperties).map(([pattern, sub]) => [
        compiles(pattern) ? keyPatterns(pattern) : pattern,
        sub,
      ]),
    );
  const pattern = node.pattern;
  // A pattern that is no regex stays: the validator says the schema cannot be used, as before.
  if (typeof pattern !== "string" || !compiles(pattern)) return out;
  const name = PREFIX + pattern;
  format[name] ??= hook(pattern);
  delete out.pattern;
  // Appended to allOf, so references into the schema's existing branches still hold.
  out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { format: name }];
  return out;
}

// Written in a pattern, a character stands for itself once these are escaped (Unicode mode).
const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/** Every key of every object in a value (patternProperties are tested against these). */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (isRecord(value))
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      keysOf(item, into);
    }
  return into;
}

const keyed = new WeakMap<Schema, boolean>();

/** Whether a schema has patternProperties anywhere (then it is rewritten per value). */
function hasKeyPatterns(schema: Schema): boolean {
  let known = keyed.get(schema);
  if (known === undefined) {
    known = JSON.stringify(schema).includes('"patternProperties"');
    keyed.set(schema, known);
  }
  return known;
}

/**
 * The schema with every `pattern` keyword turned into a format of its own, which tests values
 * through `patternVerdict` (off the page's thread, with a time limit) instead of running a
 * server's regex here; each patternProperties pattern becomes the alternation of the value's
 * keys it matches (or may: a key whose test has not answered, or ran out of time, counts as
 * matching), which runs in time linear in the keys. `signature` names that rewrite: "" when
 * the schema has no patternProperties, so that one validator serves every value.
 */
export function hookPatterns(
  schema: Schema,
  value: unknown,
): { schema: Schema; signature: string } {
  if (!hasKeyPatterns(schema)) return { schema: hooked(schema, (p) => p) as Schema, signature: "" };
  const keys = [...keysOf(value)];
  const rewrites: string[] = [];
  const keyPatterns = (pattern: string) => {
    const matching = keys.filter((key) => patternVerdict(pattern, key) !== "mismatch");
    const rewritten = matching.length === 0 ? "(?!)" : `^(?:${matching.map(literal).join("|")})$`;
    rewrites.push(rewritten);
    return rewritten;
  };
  const hookedSchema = hooked(schema, keyPatterns) as Schema;
  return { schema: hookedSchema, signature: rewrites.join("\u0000") };
}

/** The problem a hooked pattern's failure stands for; undefined for any other format. */
export function patternProblem(
  error: string,
  pointer: string,
  value: unknown,
): { pointer: string; message: string; unchecked?: true } | undefined {
  const at = error.indexOf(PREFIX);
  if (at === -1) return undefined;
  const pattern = error.slice(at + PREFIX.length, error.lastIndexOf('"'));
  const text = getAt(
    value,
    pointer
      .split("/")
      .slice(1)
      .map((s) => decodeURIComponent(s).replaceAll("~1", "/").replaceAll("~0", "~"))
      .map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
  );
  if (typeof text === "string" && patternVerdict(pattern, text) === "slow")
    return {
      pointer,
      message: `Not checked here: the server's pattern took over ${PATTERN_BUDGET_MS / 1000} s on this value (the server checks it when you send).`,
      unchecked: true,
    };
  return { pointer, message: "String does not match pattern." };
}
