import * as z from "zod";
import { anonymousAddress, tool, ToolError, type HandlerContext } from "../../mcp/index.ts";
import { readVar } from "../../env-vars.ts";
import { checkStatement, QUERY_BOUNDS, readPage } from "./query.ts";
import { SqlRefusal } from "./sql-guard.ts";
import { analysisTools } from "./analysis.ts";
import { CALLER_BOUNDS, CallerGate } from "./callers.ts";
import { meteredDb } from "./metered-db.ts";

const CURSOR_PURPOSE = "query cursor";
const CURSOR_TTL_MS = 10 * 60_000;
/** This instance's per-caller bounds on the database (one query in flight, time a minute). */
const gate = new CallerGate();

/** Who the gate counts: a signed-in caller's subject, or an anonymous caller's address. */
const callerKey = (ctx: HandlerContext) =>
  ctx.caller ? `sub:${ctx.caller.subject}` : `ip:${anonymousAddress(ctx) ?? "unknown"}`;

/** Database time a caller may use a minute: `ANALYTICS_DB_MS_PER_MINUTE`, else the default. */
function dbMsPerMinute(env: Cloudflare.Env): number {
  const set = readVar(env, "ANALYTICS_DB_MS_PER_MINUTE")?.trim();
  const value = set ? Number(set) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : CALLER_BOUNDS.dbMsPerMinute;
}

const CursorSchema = z.object({
  q: z.string(),
  o: z.number().int().min(0),
  n: z.number().int().positive(),
});

const executeQuery = tool({
  name: "execute_query",
  title: "Run a read-only SQL query",
  description:
    "Runs one read-only SQLite statement (SELECT, WITH … SELECT, VALUES or EXPLAIN) on the analytics database " +
    "(tables users, orders, incidents, error_logs; see the d1://analytics/tables/{table}/schema resources). " +
    "Anything that could write is refused. Results come a page at a time: when `next` is set, call again with " +
    `\`cursor: next\` (and no \`sql\`) for the following rows; a page holds at most \`page_size\` rows and ${QUERY_BOUNDS.maxPageBytes / 1000} KB. ` +
    "Cursors last 10 minutes; use ORDER BY for stable pages. A query whose plan would visit more than " +
    `${QUERY_BOUNDS.maxRowVisits / 1e6} million rows (a join without an indexed condition, say) or with a recursive CTE ` +
    `of more than ${QUERY_BOUNDS.maxRecursiveRows.toLocaleString("en-US")} rows is refused before it runs. ` +
    "Each caller runs one query at a time, within a budget of database time a minute.",
  input: z.object({
    sql: z
      .string()
      .max(10_000)
      .optional()
      .describe("The statement to run (omit when passing cursor)"),
    cursor: z.string().optional().describe("The `next` value of a previous page"),
    page_size: z.number().int().min(1).max(500).default(100).describe("Rows per page"),
  }),
  output: z.object({
    columns: z.array(z.string()),
    rows: z.array(z.record(z.string(), z.unknown())),
    row_count: z.number().int(),
    offset: z.number().int(),
    next: z.string().optional().describe("Pass as `cursor` for the next page"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ sql, cursor, page_size }, ctx) => {
    if ((sql === undefined) === (cursor === undefined)) {
      throw new ToolError(
        "Pass either `sql` (a new query) or `cursor` (the next page of one), not both or neither.",
      );
    }
    const position = cursor
      ? await ctx.handles.open(CURSOR_PURPOSE, cursor, {
          schema: CursorSchema,
          renew: "Run the query again with `sql`.",
        })
      : { q: sql ?? "", o: 0, n: page_size };
    const caller = callerKey(ctx);
    const admission = gate.admit(caller, sql, dbMsPerMinute(ctx.env));
    const db = meteredDb(ctx.env.ANALYTICS_DB, admission.charge);
    let page;
    try {
      let statement;
      try {
        statement = await checkStatement(db, position.q);
      } catch (error) {
        if (error instanceof SqlRefusal && error.deterministic && sql !== undefined)
          gate.remember(caller, sql, error.message);
        throw error;
      }
      page = await readPage(db, statement, position.o, position.n);
    } catch (error) {
      if (error instanceof SqlRefusal) throw new ToolError(error.message);
      throw error;
    } finally {
      admission.end();
    }
    const next = page.hasMore
      ? await ctx.handles.seal(
          CURSOR_PURPOSE,
          { ...position, o: position.o + page.rows.length },
          { ttlMs: CURSOR_TTL_MS },
        )
      : undefined;
    return {
      columns: page.columns,
      rows: page.rows,
      row_count: page.rows.length,
      offset: position.o,
      ...(next ? { next } : {}),
    };
  },
});

export const tools = [executeQuery, ...analysisTools];
