/** A user table of the analytics database and the DDL that created it. */
export type TableInfo = { name: string; sql: string };

/** The tables a client may see: internal SQLite, D1 and migration tables are left out. */
export async function listTables(db: D1Database): Promise<TableInfo[]> {
  const { results } = await db
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'd1\\_%' ESCAPE '\\'
       ORDER BY name`,
    )
    .all<TableInfo>();
  return results;
}

/** The DDL of a table and its indexes, or undefined when there is no such user table. */
export async function tableDdl(db: D1Database, table: string): Promise<string | undefined> {
  const tables = await listTables(db);
  if (!tables.some((t) => t.name === table)) return undefined;
  const { results } = await db
    .prepare(
      "SELECT sql FROM sqlite_master WHERE tbl_name = ?1 AND sql IS NOT NULL ORDER BY type = 'table' DESC, name",
    )
    .bind(table)
    .all<{ sql: string }>();
  return `${results.map((r) => `${r.sql};`).join("\n\n")}\n`;
}

/** Quotes an identifier for SQLite. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
