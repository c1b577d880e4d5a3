import { ErrorCode, resourceTemplate, RpcError } from "../../mcp/index.ts";
import { isUserTable, listTables, quoteIdentifier, tableDdl } from "./tables.ts";

const completeTable = async (value: string, _context: unknown, ctx: { env: Cloudflare.Env }) =>
  (await listTables(ctx.env.ANALYTICS_DB)).filter((name) => name.startsWith(value));

export const resourceTemplates = [
  resourceTemplate({
    uriTemplate: "d1://analytics/tables/{table}/schema",
    name: "table-schema",
    title: "Table schema",
    description: "The CREATE statements (table and indexes) of one analytics table",
    mimeType: "text/x-sql",
    complete: { table: completeTable },
    list: async (ctx) =>
      (await listTables(ctx.env.ANALYTICS_DB)).map((table) => ({
        uri: `d1://analytics/tables/${table}/schema`,
        name: `${table} schema`,
        description: `DDL of the ${table} table`,
        mimeType: "text/x-sql",
      })),
    read: async ({ table }, _uri, ctx) => tableDdl(ctx.env.ANALYTICS_DB, table),
  }),
  resourceTemplate({
    uriTemplate: "d1://analytics/tables/{table}/rows{?limit}",
    name: "table-rows",
    title: "Table rows",
    description:
      "The first rows of one analytics table as JSON (limit 1-100, default 20; another limit is refused)",
    mimeType: "application/json",
    cache: { ttlMs: 30_000, cacheScope: "private" },
    complete: { table: completeTable },
    read: async ({ table, limit }, uri, ctx) => {
      const db = ctx.env.ANALYTICS_DB;
      if (!(await isUserTable(db, table))) return undefined;
      const count = limit === undefined || limit === "" ? 20 : Number(limit);
      if (!Number.isInteger(count) || count < 1 || count > 100)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `The limit in ${uri} must be a whole number from 1 to 100 (it is ${JSON.stringify(limit)}); leave it out for 20 rows.`,
          { uri, limit },
        );
      const { results } = await db
        .prepare(`SELECT * FROM ${quoteIdentifier(table)} ORDER BY rowid LIMIT ?1`)
        .bind(count)
        .all();
      return JSON.stringify(results, null, 2);
    },
  }),
];
