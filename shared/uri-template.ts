/**
 * RFC 6570 URI templates: expansion and the reverse match used to route `resources/read`.
 * Matching supports the operators servers use for resource URIs: simple `{x}`, reserved `{+x}`,
 * fragment `{#x}`, label `{.x}`, path `{/x}` and query `{?x,y}` / `{&x}`.
 */

type Operator = "" | "+" | "#" | "." | "/" | "?" | "&";
type Part = { literal: string } | { op: Operator; names: string[] };

/** The variable names a template declares, as a string union (for typed read handlers). */
export type TemplateVariables<T extends string> = T extends `${string}{${infer Expr}}${infer Rest}`
  ? ExpressionNames<StripOperator<Expr>> | TemplateVariables<Rest>
  : never;
type StripOperator<E extends string> = E extends `${"+" | "#" | "." | "/" | "?" | "&"}${infer R}`
  ? R
  : E;
type ExpressionNames<E extends string> = E extends `${infer A},${infer B}`
  ? StripModifier<A> | ExpressionNames<B>
  : StripModifier<E>;
type StripModifier<N extends string> = N extends `${infer V}*`
  ? V
  : N extends `${infer V}:${string}`
    ? V
    : N;

// Query expressions ({?x} and {&x}) may be absent from a URI, so their variables are optional.
type QueryVariables<T extends string> =
  T extends `${string}{${"?" | "&"}${infer Expr}}${infer Rest}`
    ? ExpressionNames<Expr> | QueryVariables<Rest>
    : never;

/** The variables a read handler receives for template `T`. */
export type TemplateParams<T extends string> = {
  [K in TemplateVariables<T> as K extends QueryVariables<T> ? never : K]: string;
} & { [K in QueryVariables<T>]?: string } extends infer P
  ? { [K in keyof P]: P[K] }
  : never;

const OPERATORS: readonly Operator[] = ["+", "#", ".", "/", "?", "&"];

function isOperator(char: string | undefined): char is Operator {
  return OPERATORS.some((op) => op === char);
}

export class UriTemplate {
  readonly parts: Part[];
  readonly variables: string[];
  readonly #pattern: RegExp;
  readonly #groups: { name: string; op: Operator }[] = [];
  /** Variables of the query expressions: only these may be set from `?k=v` pairs. */
  readonly #queryNames: ReadonlySet<string>;

  constructor(readonly template: string) {
    this.parts = parse(template);
    this.variables = this.parts.flatMap((p) => ("names" in p ? p.names : []));
    this.#queryNames = new Set(
      this.parts.flatMap((p) => ("names" in p && (p.op === "?" || p.op === "&") ? p.names : [])),
    );
    this.#pattern = new RegExp(`^${this.parts.map((p) => this.#toRegex(p)).join("")}$`);
  }

  /** The variables of `uri` when it matches this template, else undefined. */
  match(uri: string): Record<string, string> | undefined {
    const m = this.#pattern.exec(uri);
    if (!m) return undefined;
    const out: Record<string, string> = {};
    this.#groups.forEach(({ name, op }, i) => {
      const raw = m[i + 1];
      if (raw === undefined) return;
      if (op === "?" || op === "&") {
        for (const pair of raw.split("&")) {
          const eq = pair.indexOf("=");
          const key = eq === -1 ? pair : pair.slice(0, eq);
          if (this.#queryNames.has(key)) out[key] = safeDecode(eq === -1 ? "" : pair.slice(eq + 1));
        }
      } else {
        out[name] = op === "+" || op === "#" ? raw : safeDecode(raw);
      }
    });
    return out;
  }

  /** Expands the template with `values` (missing variables are left out). */
  expand(values: Record<string, string | undefined>): string {
    return this.parts
      .map((p) => {
        if ("literal" in p) return p.literal;
        const present = p.names.filter((n) => values[n] !== undefined);
        if (present.length === 0) return "";
        const enc = (v: string) =>
          p.op === "+" || p.op === "#" ? encodeURI(v) : encodeURIComponent(v);
        if (p.op === "?" || p.op === "&") {
          return p.op + present.map((n) => `${n}=${enc(values[n] ?? "")}`).join("&");
        }
        const sep = p.op === "/" ? "/" : p.op === "." ? "." : ",";
        const prefix = p.op === "" || p.op === "+" ? "" : p.op;
        return prefix + present.map((n) => enc(values[n] ?? "")).join(sep);
      })
      .join("");
  }

  #toRegex(part: Part): string {
    if ("literal" in part) return escapeRegex(part.literal);
    const { op, names } = part;
    if (op === "?" || op === "&") {
      this.#groups.push({ name: names.join(","), op });
      return `(?:\\${op}([^#]*))?`;
    }
    // Each name gets its own capture group, joined by the operator's separator.
    const sep = op === "/" ? "/" : op === "." ? "\\." : ",";
    const chars = op === "+" || op === "#" ? "[^?]+?" : op === "/" ? "[^/?#]+" : "[^/?#,.]+";
    const prefix = op === "" || op === "+" ? "" : escapeRegex(op);
    return (
      prefix +
      names
        .map((name) => {
          this.#groups.push({ name, op });
          return `(${chars})`;
        })
        .join(sep)
    );
  }
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{");
    if (open === -1) {
      parts.push({ literal: rest });
      break;
    }
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    const close = rest.indexOf("}", open);
    if (close === -1) throw new Error(`URI template "${template}" has an unclosed "{".`);
    let body = rest.slice(open + 1, close);
    let op: Operator = "";
    const first = body[0];
    if (isOperator(first)) {
      op = first;
      body = body.slice(1);
    }
    const names = body.split(",").map((n) => n.replace(/\*$|:\d+$/, ""));
    if (names.some((n) => !/^[A-Za-z0-9_.%]+$/.test(n))) {
      throw new Error(
        `URI template "${template}" has an invalid expression "{${rest.slice(open + 1, close)}}".`,
      );
    }
    parts.push({ op, names });
    rest = rest.slice(close + 1);
  }
  return parts;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
