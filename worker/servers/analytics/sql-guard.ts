/** Why a statement was refused, in words a model can act on. */
export class SqlRefusal extends Error {
  override readonly name = "SqlRefusal";
  /**
   * Whether the same statement would be refused again on the same schema (decided from its
   * text, its plan or SQLite's verdict), so the refusal may be remembered; a passing D1 failure
   * is not.
   */
  readonly deterministic: boolean;

  constructor(message: string, options: { deterministic?: boolean } = {}) {
    super(message);
    this.deterministic = options.deterministic ?? true;
  }
}

const READ_STARTS = new Set(["SELECT", "WITH", "EXPLAIN", "VALUES"]);
// The words any other SQLite statement starts with: a statement that starts with none of these
// (nor a read keyword) is a syntax error, not a write.
const OTHER_STARTS = new Set([
  "INSERT",
  "UPDATE",
  "DELETE",
  "REPLACE",
  "CREATE",
  "DROP",
  "ALTER",
  "ATTACH",
  "DETACH",
  "PRAGMA",
  "VACUUM",
  "REINDEX",
  "ANALYZE",
  "BEGIN",
  "COMMIT",
  "END",
  "ROLLBACK",
  "SAVEPOINT",
  "RELEASE",
]);
// Anything that could write, change schema or settings, or leave the database. `replace(` is
// the string function, so REPLACE counts only when no parenthesis follows.
const FORBIDDEN =
  /\b(INSERT|UPDATE|DELETE|REPLACE(?!\s*\()|UPSERT|CREATE|DROP|ALTER|ATTACH|DETACH|PRAGMA|VACUUM|REINDEX|ANALYZE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|TRUNCATE|LOAD_EXTENSION)\b/i;

// A bound parameter (`?`, `?1`, `:name`, `@name`, `$name`) outside literals: the tool binds none,
// so D1 would fail on it, or bind what its own caller passes.
const PARAMETER = /(?:^|[^\w$])(\?\d*|[:@$][A-Za-z_0-9][\w$]*)/;

/**
 * The statement with string literals, quoted identifiers and comments blanked out (same length,
 * so positions match the original), so keyword checks see only SQL structure. A literal keeps
 * its quotes and becomes blank inside; a quoted identifier becomes `q`s between spaces; a
 * comment becomes spaces. Throws on an unterminated literal or comment.
 */
export function skeleton(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += " ".repeat(stop - i);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end === -1) throw new SqlRefusal("The statement has an unterminated /* comment.");
      out += " ".repeat(end + 2 - i);
      i = end + 2;
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      for (;;) {
        if (j >= sql.length)
          throw new SqlRefusal(`The statement has an unterminated ${c}…${close} literal.`);
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) j += 2;
          else break;
        } else j++;
      }
      const inner = j - i - 1;
      out += c === "'" ? `'${" ".repeat(inner)}'` : ` ${"q".repeat(inner)} `;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index of the first character at or after `i` that is neither whitespace nor in a comment. */
function skipTrivia(sql: string, i: number): number {
  for (;;) {
    while (i < sql.length && /\s/.test(sql[i]!)) i++;
    if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else return i;
  }
}

/** The word at `i`, upper-cased, and the index after it. */
function wordAt(sql: string, i: number): [word: string, end: number] {
  const word = /^\w*/.exec(sql.slice(i))?.[0] ?? "";
  return [word.toUpperCase(), i + word.length];
}

export type ReadStatement = {
  /** The statement, without a trailing semicolon. */
  sql: string;
  /** The keyword it starts with, after any comments. */
  keyword: "SELECT" | "WITH" | "VALUES" | "EXPLAIN";
  /** The statement whose program SQLite runs: `sql`, or for EXPLAIN [QUERY PLAN] the one explained. */
  program: string;
};

const isReadStart = (word: string): word is ReadStatement["keyword"] => READ_STARTS.has(word);

/**
 * First layer of the read-only rule: exactly one statement, starting (after any comments) with
 * SELECT, WITH, VALUES or EXPLAIN, and no keyword that could write anywhere in it (CTEs can hide
 * an INSERT). Returns the statement without a trailing semicolon and the keyword it starts with.
 */
export function checkReadOnly(sql: string): ReadStatement {
  const statement = sql.trim().replace(/;\s*$/, "");
  if (statement === "") throw new SqlRefusal("The query is empty. Send one SELECT statement.");
  const shape = skeleton(statement);
  if (shape.includes(";"))
    throw new SqlRefusal(
      "Only one statement is allowed per call; remove the extra `;` and run them one at a time.",
    );
  const [first, afterFirst] = wordAt(statement, skipTrivia(statement, 0));
  if (!isReadStart(first) && !OTHER_STARTS.has(first)) {
    throw new SqlRefusal(
      first
        ? `Syntax error near "${statement.slice(afterFirst - first.length, afterFirst)}": no SQL statement starts with it. Start with SELECT, WITH, VALUES or EXPLAIN.`
        : "Syntax error: the statement does not start with a keyword. Start with SELECT, WITH, VALUES or EXPLAIN.",
    );
  }
  if (!isReadStart(first)) {
    throw new SqlRefusal(
      `Only read-only queries are allowed (SELECT, WITH … SELECT, VALUES or EXPLAIN); this one starts with ${first || "something else"}.`,
    );
  }
  const parameter = PARAMETER.exec(shape)?.[1];
  if (parameter)
    throw new SqlRefusal(
      `The query uses the parameter ${parameter}; parameters are not supported here. Write values inline, e.g. WHERE id = 42 or name = 'Ada'.`,
    );
  const bad = FORBIDDEN.exec(shape)?.[1]?.toUpperCase();
  if (bad)
    throw new SqlRefusal(
      `The query contains ${bad}, which could change the database; only reads are allowed.`,
    );
  return {
    sql: statement,
    keyword: first,
    program: first === "EXPLAIN" ? explained(statement, afterFirst) : statement,
  };
}

/** What `EXPLAIN [QUERY PLAN] …` explains, given the index just after EXPLAIN. */
function explained(statement: string, afterExplain: number): string {
  let i = skipTrivia(statement, afterExplain);
  const [query, afterQuery] = wordAt(statement, i);
  if (query === "QUERY") {
    const [plan, afterPlan] = wordAt(statement, skipTrivia(statement, afterQuery));
    if (plan === "PLAN") i = skipTrivia(statement, afterPlan);
  }
  return statement.slice(i);
}
