/** Why a statement was refused, in words a model can act on. */
export class SqlRefusal extends Error {
  override readonly name = "SqlRefusal";
}

const READ_STARTS = new Set(["SELECT", "WITH", "EXPLAIN", "VALUES"]);
// Anything that could write, change schema or settings, or leave the database. `replace(` is
// the string function, so REPLACE counts only when no parenthesis follows.
const FORBIDDEN =
  /\b(INSERT|UPDATE|DELETE|REPLACE(?!\s*\()|UPSERT|CREATE|DROP|ALTER|ATTACH|DETACH|PRAGMA|VACUUM|REINDEX|ANALYZE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|TRUNCATE)\b/i;

/**
 * The statement with string literals, quoted identifiers and comments blanked out, so keyword
 * checks see only SQL structure. Throws on an unterminated literal or comment.
 */
export function skeleton(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
      out += " ";
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end === -1) throw new SqlRefusal("The statement has an unterminated /* comment.");
      i = end + 2;
      out += " ";
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
      out += c === "'" ? " '' " : " _q ";
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * First layer of the read-only rule: exactly one statement, starting with SELECT, WITH, VALUES
 * or EXPLAIN, and no keyword that could write anywhere in it (CTEs can hide an INSERT).
 * Returns the statement without a trailing semicolon.
 */
export function checkReadOnly(sql: string): string {
  const statement = sql.trim().replace(/;\s*$/, "");
  if (statement === "") throw new SqlRefusal("The query is empty. Send one SELECT statement.");
  const shape = skeleton(statement);
  if (shape.includes(";"))
    throw new SqlRefusal(
      "Only one statement is allowed per call; remove the extra `;` and run them one at a time.",
    );
  const first = (/^\s*([A-Za-z_]+)/.exec(shape)?.[1] ?? "").toUpperCase();
  if (!READ_STARTS.has(first)) {
    throw new SqlRefusal(
      `Only read-only queries are allowed (SELECT, WITH … SELECT, VALUES or EXPLAIN); this one starts with ${first || "something else"}.`,
    );
  }
  const bad = FORBIDDEN.exec(shape)?.[1]?.toUpperCase();
  if (bad)
    throw new SqlRefusal(
      `The query contains ${bad}, which could change the database; only reads are allowed.`,
    );
  return statement;
}
