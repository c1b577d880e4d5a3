import { SqlRefusal } from "./sql-guard.ts";

/**
 * Bytes a value the guard cannot see is taken to hold: a column, a subquery's value, a number.
 * Stored values are bounded by the table; what this counts is what functions make of them.
 */
export const OPAQUE_VALUE_BYTES = 64;

type Atom =
  | { kind: "string"; bytes: number; text: string }
  | { kind: "value"; bytes: number; number?: number };
type Call = { kind: "call"; name: string; args: Item[][] };
type Paren = { kind: "paren"; groups: Item[][] };
type Item = Atom | Call | Paren;

// Words that name no value: a column list or expression around them is not made bigger by them.
const KEYWORDS = new Set(
  (
    "select from where as and or not null is in like glob regexp match between case when then else end " +
    "distinct all order by group having limit offset asc desc nulls first last text integer int real blob " +
    "numeric collate nocase binary rtrim escape exists filter over partition join on left right full inner " +
    "outer cross natural using with recursive union except intersect values true false materialized window " +
    "rows range groups unbounded preceding following current row indexed"
  ).split(" "),
);

// Functions whose output can outgrow their arguments, each sized below; JSON makers may escape
// every character of their arguments.
const JSON_MAKERS =
  /^(json|jsonb|json_array|jsonb_array|json_object|jsonb_object|json_set|jsonb_set|json_insert|jsonb_insert|json_replace|jsonb_replace|json_patch|jsonb_patch|json_quote)$/;
const AGGREGATE_MAKERS =
  /^(group_concat|string_agg|json_group_array|jsonb_group_array|json_group_object|jsonb_group_object)$/;
const DIRECTIVE = /%[-+ 0#,!]*(\d*)(?:\.(\d*))?/g;

const utf8 = new TextEncoder();
// SQLite's own limit on an expression's depth is 1,000; this reader recurses once per level.
const MAX_NESTING = 1_000;

/** The statement's expressions as a tree of calls, parentheses and values, read from `view`. */
function parse(sql: string, view: string): Item[] {
  const token =
    /\s*(?:(')|([A-Za-z_][\w$]*)|(0x[\da-f]+|\d+(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+)|(\()|(\))|(,)|(\.)|(\S))/giy;
  let at = 0;
  let depth = 0;
  const group = (): { items: Item[]; end: "," | ")" | "" } => {
    const items: Item[] = [];
    let afterDot = false;
    for (;;) {
      token.lastIndex = at;
      const m = token.exec(view);
      if (!m) return { items, end: "" };
      at = token.lastIndex;
      const [, quote, word, number, open, close, comma, dot] = m;
      if (quote) {
        const end = view.indexOf("'", at);
        const text = sql.slice(at, end).replace(/''/g, "'");
        at = end + 1;
        items.push({ kind: "string", bytes: utf8.encode(text).length, text });
      } else if (word) {
        const next = /\s*\(/y;
        next.lastIndex = at;
        if (!KEYWORDS.has(word.toLowerCase()) && next.test(view)) {
          at = next.lastIndex;
          items.push({ kind: "call", name: word.toLowerCase(), args: list() });
        } else if (!KEYWORDS.has(word.toLowerCase()) && !afterDot)
          items.push({ kind: "value", bytes: OPAQUE_VALUE_BYTES });
      } else if (number)
        items.push({ kind: "value", bytes: Math.min(number.length, 24), number: Number(number) });
      else if (open) items.push({ kind: "paren", groups: list() });
      else if (close) return { items, end: ")" };
      else if (comma) return { items, end: "," };
      afterDot = Boolean(dot);
    }
  };
  // The comma-separated groups up to the closing parenthesis.
  const list = (): Item[][] => {
    if (++depth > MAX_NESTING)
      throw new SqlRefusal(`The statement nests parentheses more than ${MAX_NESTING} deep.`);
    const groups: Item[][] = [];
    for (;;) {
      const { items, end } = group();
      groups.push(items);
      if (end === ",") continue;
      depth--;
      return groups;
    }
  };
  const all: Item[] = [];
  for (;;) {
    const { items, end } = group();
    all.push(...items);
    if (end === "") return all;
  }
}

/** A string literal's length when `items` is just that literal. */
const literal = (items: Item[]): number | undefined =>
  items.length === 1 && items[0]!.kind === "string" ? items[0]!.bytes : undefined;
/** The number `items` is, when it is just a numeric literal. */
const numberIn = (items: Item[] | undefined): number | undefined => {
  const only = items?.length === 1 ? items[0] : undefined;
  return only?.kind === "value" ? only.number : undefined;
};

/** The widths and precisions a literal printf pattern writes (`%1000d`, `%.50s`). */
function formatWidths(items: Item[] | undefined): number {
  const only = items?.length === 1 ? items[0] : undefined;
  if (only?.kind !== "string") return 0;
  let bytes = 0;
  for (const [, width = "", precision = ""] of only.text.matchAll(DIRECTIVE))
    bytes += Number(width || 0) + Number(precision || 0);
  return bytes;
}

/**
 * The bytes one evaluation of the statement's functions can make beyond their arguments, each
 * call counted through nesting: `replace` grows its input by the replacement over the pattern,
 * `hex` doubles it, `printf` adds its pattern and widths, `zeroblob`/`randomblob` make their
 * size, an aggregate like `group_concat` grows by its value each row. The caller multiplies the
 * sum by the rows the plan visits. Literal sizes and printf patterns are checked beforehand.
 */
export function madeBytesPerRow(sql: string, view: string): number {
  let made = 0;
  const sizeOf = (items: Item[]): number => items.reduce((sum, item) => sum + itemSize(item), 0);
  const itemSize = (item: Item): number => {
    if (item.kind !== "call" && item.kind !== "paren") return item.bytes;
    if (item.kind === "paren") return item.groups.reduce((sum, g) => sum + sizeOf(g), 0);
    const sizes = item.args.map(sizeOf);
    const inputs = sizes.reduce((a, b) => a + b, 0);
    const out = callSize(item, sizes, inputs);
    made += Math.max(0, out - inputs);
    return out;
  };
  const callSize = ({ name, args }: Call, sizes: number[], inputs: number): number => {
    const [first = 0, second = 0] = sizes;
    if (name === "replace") {
      const pattern = literal(args[1] ?? []) ?? 1; // a pattern not written could be one byte
      const replacement = literal(args[2] ?? []) ?? sizes[2] ?? 0;
      if (pattern === 0 || replacement <= pattern) return inputs;
      return Math.ceil(first / pattern) * replacement + second + (sizes[2] ?? 0);
    }
    if (name === "hex") return 2 * first;
    if (name === "quote") return 2 * first + 3;
    if (name === "zeroblob" || name === "randomblob") return inputs + (numberIn(args[0]) ?? 0);
    if (name === "printf" || name === "format") return 2 * inputs + formatWidths(args[0]);
    if (name === "char") return 4 * args.length;
    if (name === "concat_ws") return inputs + first * Math.max(0, args.length - 2);
    if (name === "strftime") return inputs + 8 * first;
    if (name === "substr" || name === "substring") {
      const length = numberIn(args[2]); // characters, up to four bytes each
      return length === undefined ? inputs : Math.min(inputs, 4 * Math.abs(length));
    }
    if (JSON_MAKERS.test(name)) return 2 * inputs + 16;
    if (AGGREGATE_MAKERS.test(name)) return 2 * inputs + 16;
    if (name === "json_pretty" || name === "jsonb_pretty")
      throw new SqlRefusal(
        `${name}() is not allowed: the bytes it makes grow with its input's nesting, which the cost bound cannot know.`,
      );
    return inputs;
  };
  sizeOf(parse(sql, view));
  return made;
}
