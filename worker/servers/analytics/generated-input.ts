import { SqlRefusal } from "./sql-guard.ts";
import { madeBytesPerRow } from "./value-sizes.ts";

/**
 * The statement as SQLite resolves names: the skeleton (literals and comments blanked) with
 * quoted identifiers spelled out again, so `"json_each"(…)` reads as the function it calls.
 * `shape` is `skeleton(sql)`: same length, quoted names became runs of `q`.
 */
export function namesView(sql: string, shape: string): string {
  let out = "";
  for (let i = 0; i < shape.length; i++) out += shape[i] === "q" ? sql[i] : shape[i];
  return out;
}

// Table-valued functions whose rows come from their argument, not from stored data: a loop
// over one yields as many rows as a generated string has elements, which no plan can know.
const GENERATED_TABLES = /\b(json_each|json_tree|generate_series)\s*\(/i;
// Table-valued pragma functions read the schema: their rows are bounded by the tables defined.
const PRAGMA_TABLES = /\bpragma_\w+\s*\(/gi;

/**
 * Refuses table-valued functions over generated input and returns how many schema-bounded
 * ones (pragma functions) the statement calls: a plan's virtual-table loops beyond those are
 * refused too, so a function this check does not know by name never runs uncounted.
 */
export function checkTableFunctions(view: string): number {
  const generated = GENERATED_TABLES.exec(view)?.[1];
  if (generated)
    throw new SqlRefusal(
      `The table-valued function ${generated.toLowerCase()} is not allowed: it yields as many rows as its input ` +
        "holds, which the cost bound cannot know before running. Read JSON values with json_extract, " +
        "json_array_length or ->> instead.",
    );
  return [...view.matchAll(PRAGMA_TABLES)].length;
}

/** Refuses a plan with more virtual-table loops than the schema-bounded functions explain. */
export function checkVirtualLoops(loops: readonly string[], pragmaCalls: number): void {
  if (loops.length > pragmaCalls)
    throw new SqlRefusal(
      `The query reads a table-valued function (${loops.join(", ")}) whose size the cost bound cannot know; ` +
        "only the pragma_… schema functions are allowed.",
    );
}

// Functions that make a value of a size their argument says, from nothing stored.
const SIZED_VALUE = /\b(zeroblob|randomblob)\s*\(/gi;
// A whole integer literal argument: `zeroblob(1000)`.
const LITERAL_ARGUMENT = /^\s*(\d{1,9})\s*\)/;
const FORMATTER = /\b(printf|format)\s*\(\s*'((?:[^']|'')*)'/gi;
const FORMATTER_CALL = /\b(printf|format)\s*\(/gi;
// A conversion's width or precision: `%1000d`, `%.500s`, `%*d`.
const DIRECTIVE = /%[-+ 0#,!]*(\*|\d*)(?:\.(\*|\d*))?/g;

/**
 * The bytes one evaluation of the statement's functions can make (see `madeBytesPerRow`), after
 * refusing sizes not written as literals: `zeroblob(n)`, `randomblob(n)` and the widths in
 * `printf`/`format` patterns. The caller multiplies them by the rows the plan visits, as each
 * may run once per row.
 */
export function generatedBytesPerRow(sql: string, view: string): number {
  for (const match of view.matchAll(SIZED_VALUE)) {
    const after = sql.slice(match.index + match[0].length);
    const literal = LITERAL_ARGUMENT.exec(after)?.[1];
    if (literal === undefined)
      throw new SqlRefusal(
        `${match[1]!.toLowerCase()}() takes a whole-number literal here (e.g. zeroblob(1000)), so the bytes it makes are known before the query runs.`,
      );
  }
  const formatters = [...view.matchAll(FORMATTER_CALL)].length;
  let literalFormats = 0;
  for (const match of sql.matchAll(FORMATTER)) {
    if (!/\S/.test(view.slice(match.index, match.index + 1))) continue; // inside a literal
    literalFormats++;
    for (const [, width, precision] of match[2]!.matchAll(DIRECTIVE)) {
      if (width === "*" || precision === "*")
        throw new SqlRefusal(
          `${match[1]!.toLowerCase()}() widths must be written in its pattern, not taken from an argument (*).`,
        );
    }
  }
  if (literalFormats < formatters)
    throw new SqlRefusal(
      "printf() and format() take their pattern as a string literal, so the bytes they make are known before the query runs.",
    );
  return madeBytesPerRow(sql, view);
}
