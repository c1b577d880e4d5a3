import { checkProgramIsReadOnly } from "./bytecode-guard.ts";
import { checkReadOnly, SqlRefusal } from "./sql-guard.ts";
import { errorText } from "../../../shared/error-text.ts";

export type QueryPage = { columns: string[]; rows: Record<string, unknown>[]; hasMore: boolean };

/**
 * Runs one read-only statement and returns one page of it. Both guards run first; SELECT, WITH
 * and VALUES queries are paged by wrapping them (`LIMIT`/`OFFSET`), EXPLAIN returns whole.
 */
export async function runPage(
  db: D1Database,
  sql: string,
  offset: number,
  pageSize: number,
): Promise<QueryPage> {
  const statement = checkReadOnly(sql);
  await checkProgramIsReadOnly(db, statement.program);
  const pageable = statement.keyword !== "EXPLAIN";
  const prepared = pageable
    ? // Line breaks keep a trailing `--` comment from swallowing the closing parenthesis.
      db
        .prepare(`SELECT * FROM (\n${statement.sql}\n) LIMIT ?1 OFFSET ?2`)
        .bind(pageSize + 1, offset)
    : db.prepare(statement.sql);
  let columns: unknown[] | undefined;
  let raw: unknown[][];
  try {
    [columns, ...raw] = await prepared.raw<unknown[]>({ columnNames: true });
  } catch (error) {
    throw new SqlRefusal(`The query failed: ${errorText(error)}`);
  }
  const names = (columns ?? []).map(String);
  const rows = raw
    .slice(0, pageable ? pageSize : raw.length)
    .map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]])));
  return { columns: names, rows, hasMore: pageable && raw.length > pageSize };
}
