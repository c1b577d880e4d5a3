// Tables a client may see: internal SQLite, D1 and migration tables are left out.
const USER_TABLE = `type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
  AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'd1\\_%' ESCAPE '\\'`;

/** The names of the tables a client may see, in order. */
export async function listTables(db: Pick<D1Database, "prepare">): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT name FROM sqlite_master WHERE ${USER_TABLE} ORDER BY name`)
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Whether `table` is one the client may see. */
export async function isUserTable(db: D1Database, table: string): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 FROM sqlite_master WHERE ${USER_TABLE} AND name = ?1`)
    .bind(table)
    .first();
  return row !== null;
}

/** The DDL of a table and its indexes, or undefined when there is no such user table. */
export async function tableDdl(db: D1Database, table: string): Promise<string | undefined> {
  const { results } = await db
    .prepare(
      `SELECT sql FROM sqlite_master
       WHERE tbl_name = ?1 AND sql IS NOT NULL
         AND EXISTS (SELECT 1 FROM sqlite_master WHERE ${USER_TABLE} AND name = ?1)
       ORDER BY type = 'table' DESC, name`,
    )
    .bind(table)
    .all<{ sql: string }>();
  return results.length > 0 ? `${results.map((r) => `${r.sql};`).join("\n\n")}\n` : undefined;
}

/** Quotes an identifier for SQLite. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
