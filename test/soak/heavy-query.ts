// SOAK_HEAVY_QUERY=1: one more client sends `execute_query` the heaviest statements an attacker
// has found, in a loop, while the others run the mix with a cheap analytics query added; the
// soak then fails unless every other caller's p99 stays under a second.
import { positiveNumber } from "../bench/options.ts";
import { percentile } from "../bench/stats.ts";

/** Statements that once held the analytics database for seconds to minutes. */
export const HEAVY_QUERIES = [
  // json_each over a generated string: counted as one table, visits 3×10⁷ rows.
  "SELECT count(*) FROM json_each('[' || replace(hex(zeroblob(150000)), '00', '0,') || '0]') a, users b",
  // A megabyte made per row of a 4,000-row table.
  "SELECT count(*) FROM error_logs a WHERE length(hex(zeroblob(1000000 + a.id))) > 0",
  // A max() estimated at √n rows that reads every one, 100 KB each.
  "SELECT max(length(randomblob(100000) || a.id)) FROM error_logs a",
  // A string doubled six times per row of 100,000 generated rows: 31 s on local D1.
  "WITH RECURSIVE c(i, x) AS (SELECT 1, '0' UNION ALL SELECT i + 1, x FROM c WHERE i < 100000) " +
    "SELECT count(*) FROM c WHERE length(replace(replace(replace(replace(replace(replace(x || i, '0', '00'), '0', '00'), '0', '00'), '0', '00'), '0', '00'), '0', '00')) > 0",
];

export const HEAVY = process.env.SOAK_HEAVY_QUERY === "1";
/** How long the mix runs without the heavy caller first, for the others' p99 to compare with. */
export const BASELINE_SECONDS = positiveNumber("SOAK_BASELINE_SECONDS", 30);

/** What the other callers may wait at the 99th percentile while the heavy caller runs. */
export const OTHERS_P99_MS = 1000;

type Call = (sql: string) => Promise<{ isError: boolean; text: string }>;

/** The heavy caller: its statements in turn until the deadline; counts refusals and runs. */
export async function heavyCaller(call: Call, deadline: number): Promise<HeavyStats> {
  const stats: HeavyStats = { sent: 0, refused: 0, ran: 0, ms: [], reasons: new Map() };
  while (Date.now() < deadline) {
    const sql = HEAVY_QUERIES[stats.sent % HEAVY_QUERIES.length] as string;
    const started = performance.now();
    const answer = await call(sql).catch((error: unknown) => ({
      isError: true,
      text: String(error),
    }));
    stats.ms.push(performance.now() - started);
    stats.sent++;
    if (answer.isError) {
      stats.refused++;
      const reason = answer.text.slice(0, 120);
      stats.reasons.set(reason, (stats.reasons.get(reason) ?? 0) + 1);
    } else stats.ran++;
  }
  return stats;
}

/**
 * What the heavy caller got (each statement refused, or run within its bounds, and how long
 * either took) and what the others waited, beside their baseline without it.
 */
export function heavyReport(stats: HeavyStats, othersP99: number, baseline?: number[]): string {
  const sorted = [...stats.ms].sort((a, b) => a - b);
  const lines = [
    `Heavy caller: ${stats.sent} statements (${stats.refused} refused, ${stats.ran} ran), ` +
      `p50 ${percentile(sorted, 50).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`,
    ...[...stats.reasons].map(([reason, n]) => `  refused ${n}×: ${reason}`),
    `The others' p99: ${othersP99.toFixed(1)} ms with the heavy caller` +
      (baseline ? `, ${percentile(baseline, 99).toFixed(1)} ms without it` : "") +
      ` (must stay under ${OTHERS_P99_MS} ms with it)`,
  ];
  return lines.join("\n");
}

export type HeavyStats = {
  sent: number;
  refused: number;
  ran: number;
  ms: number[];
  /** Each refusal's message (its start), and how often it came. */
  reasons: Map<string, number>;
};
