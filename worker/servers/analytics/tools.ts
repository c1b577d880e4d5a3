import * as z from "zod";
import { tool, ToolError } from "../../mcp/index.ts";
import { QUERY_BOUNDS, runPage } from "./query.ts";
import { SqlRefusal } from "./sql-guard.ts";
import { analysisTools } from "./analysis.ts";

const CURSOR_PURPOSE = "query cursor";
const CURSOR_TTL_MS = 10 * 60_000;
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
    `of more than ${QUERY_BOUNDS.maxRecursiveRows.toLocaleString("en-US")} rows is refused before it runs.`,
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
    let page;
    try {
      page = await runPage(ctx.env.ANALYTICS_DB, position.q, position.o, position.n);
    } catch (error) {
      if (error instanceof SqlRefusal) throw new ToolError(error.message);
      throw error;
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
