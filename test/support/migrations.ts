/**
 * Each D1 binding and where its migrations live; tests start from the same schema as `npm start`.
 * Keep in step with `migrations_dir` of the `[[d1_databases]]` entries in wrangler.toml.
 */
export const MIGRATIONS = {
  ANALYTICS_DB: "worker/servers/analytics/migrations",
  NOTES_DB: "worker/servers/notes/migrations",
};

/** A migration file's statements (each ends with `;` at the end of a line; comments dropped). */
export function migrationStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, "")
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
