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

function hooked(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(hooked);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = DATA.has(key) ? value : hooked(value);
  const pattern = node.pattern;
  // A pattern that is no regex stays: the validator says the schema cannot be used, as before.
  if (typeof pattern !== "string" || !compiles(pattern)) return out;
  const name = PREFIX + pattern;
  format[name] ??= hook(pattern);
  delete out.pattern;
  // Appended to allOf, so references into the schema's existing branches still hold.
  out.allOf = [...(Array.isArray(node.allOf) ? node.allOf.map(hooked) : []), { format: name }];
  return out;
}

/**
 * The schema with every `pattern` keyword turned into a format of its own, which tests values
 * through `patternVerdict` (off the page's thread, with a time limit) instead of running a
 * server's regex here.
 */
export function hookPatterns(schema: Schema): Schema {
  return hooked(schema) as Schema;
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
