import * as z from "zod";
import { tool, ToolError, type Handles } from "../../mcp/index.ts";

const PURPOSE = "analysis";
const TTL_MINUTES = 15;
const LEVELS = ["warning", "error", "critical"] as const;
const AnalysisSchema = z.object({
  from: z.string(),
  to: z.string(),
  services: z.array(z.string()),
  minLevel: z.enum(LEVELS),
});
type Analysis = z.infer<typeof AnalysisSchema>;
const RENEW = "Call open_analysis again to get a new handle.";

/** The analysis a handle from open_analysis pins (refused with a hint when it is not valid). */
const openHandle = (handles: Handles, handle: string): Promise<Analysis> =>
  handles.open(PURPOSE, handle, { schema: AnalysisSchema, renew: RENEW });

/** The SQL filter an analysis pins, with its bound values. */
function where(analysis: Analysis): { sql: string; values: unknown[] } {
  const levels = LEVELS.slice(LEVELS.indexOf(analysis.minLevel));
  const values: unknown[] = [analysis.from, analysis.to, ...levels];
  let sql = `ts >= ? AND ts < ? AND level IN (${levels.map(() => "?").join(", ")})`;
  if (analysis.services.length > 0) {
    sql += ` AND service IN (${analysis.services.map(() => "?").join(", ")})`;
    values.push(...analysis.services);
  }
  return { sql, values };
}

/** A date (`2026-10-01`, midnight UTC) or a date-time with an offset, as the error-log table writes it. */
const isoTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/,
    "Expected an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T08:00:00Z)",
  )
  .refine((value) => !Number.isNaN(instant(value)), "Not a calendar date")
  .transform((value) => new Date(instant(value)).toISOString().replace(/\.000Z$/, "Z"));

/** The instant a date or date-time names; a date alone is midnight UTC. */
function instant(value: string): number {
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
}

/** When the newest error-log line was written, if there is one. */
async function latestLogTime(db: D1Database): Promise<string | undefined> {
  const row = await db
    .prepare("SELECT max(ts) AS ts FROM error_logs")
    .first<{ ts: string | null }>();
  return row?.ts ?? undefined;
}

const openAnalysis = tool({
  name: "open_analysis",
  title: "Open an error-log analysis",
  description:
    `Pins a time window and filters over the error_logs table and returns an \`analysis\` handle for ` +
    `analysis_summary and analysis_top_errors. The handle lasts ${TTL_MINUTES} minutes and only works for the caller who opened it. ` +
    "Without from/to the window is the last 7 days of data.",
  input: z.object({
    from: isoTime.optional().describe("Window start, ISO 8601 date or date-time (inclusive)"),
    to: isoTime.optional().describe("Window end, ISO 8601 date or date-time (exclusive)"),
    services: z
      .array(z.string())
      .max(20)
      .default([])
      .describe("Only these services (default: all)"),
    min_level: z.enum(LEVELS).default("warning").describe("Lowest level to include"),
  }),
  output: z.object({
    analysis: z.string(),
    window: z.object({ from: z.string(), to: z.string() }),
    expires_in_minutes: z.number(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ from, to, services, min_level }, ctx) => {
    const end = to ?? (await latestLogTime(ctx.env.ANALYTICS_DB)) ?? new Date().toISOString();
    const start = from ?? new Date(Date.parse(end) - 7 * 86_400_000).toISOString();
    if (!(Date.parse(start) < Date.parse(end)))
      throw new ToolError(`The window is empty: from (${start}) must be before to (${end}).`);
    const analysis: Analysis = { from: start, to: end, services, minLevel: min_level };
    const handle = await ctx.handles.seal(PURPOSE, analysis, { ttlMs: TTL_MINUTES * 60_000 });
    return { analysis: handle, window: { from: start, to: end }, expires_in_minutes: TTL_MINUTES };
  },
});

const analysisSummary = tool({
  name: "analysis_summary",
  title: "Summarize an analysis",
  description:
    "Counts the error-log lines of an open analysis by level and by service. Takes the handle from open_analysis.",
  input: z.object({ analysis: z.string().describe("The handle returned by open_analysis") }),
  output: z.object({
    window: z.object({ from: z.string(), to: z.string() }),
    total: z.number().int(),
    by_level: z.record(z.string(), z.number().int()),
    by_service: z.record(z.string(), z.number().int()),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ analysis: handle }, ctx) => {
    const analysis = await openHandle(ctx.handles, handle);
    const { sql, values } = where(analysis);
    const db = ctx.env.ANALYTICS_DB;
    const [levels, services] = await db.batch<{ key: string; n: number }>([
      db
        .prepare(
          `SELECT level AS key, count(*) AS n FROM error_logs WHERE ${sql} GROUP BY level ORDER BY n DESC`,
        )
        .bind(...values),
      db
        .prepare(
          `SELECT service AS key, count(*) AS n FROM error_logs WHERE ${sql} GROUP BY service ORDER BY n DESC`,
        )
        .bind(...values),
    ]);
    const toRecord = (rows: { key: string; n: number }[] = []) =>
      Object.fromEntries(rows.map((r) => [r.key, r.n]));
    const byLevel = toRecord(levels?.results);
    return {
      window: { from: analysis.from, to: analysis.to },
      total: Object.values(byLevel).reduce((a, b) => a + b, 0),
      by_level: byLevel,
      by_service: toRecord(services?.results),
    };
  },
});

const analysisTopErrors = tool({
  name: "analysis_top_errors",
  title: "Top errors of an analysis",
  description:
    "Lists the most frequent error messages of an open analysis, with their services and when they were last seen.",
  input: z.object({
    analysis: z.string().describe("The handle returned by open_analysis"),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  output: z.object({
    errors: z.array(
      z.object({
        message: z.string(),
        count: z.number().int(),
        services: z.string(),
        last_seen: z.string(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ analysis: handle, limit }, ctx) => {
    const analysis = await openHandle(ctx.handles, handle);
    const { sql, values } = where(analysis);
    const { results } = await ctx.env.ANALYTICS_DB.prepare(
      `SELECT message, count(*) AS count, group_concat(DISTINCT service) AS services, max(ts) AS last_seen
       FROM error_logs WHERE ${sql} GROUP BY message ORDER BY count DESC, message LIMIT ?`,
    )
      .bind(...values, limit)
      .all<{ message: string; count: number; services: string; last_seen: string }>();
    return { errors: results };
  },
});

export const analysisTools = [openAnalysis, analysisSummary, analysisTopErrors];
