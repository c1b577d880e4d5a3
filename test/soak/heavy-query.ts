// SOAK_HEAVY_QUERY=1: one more client sends `execute_query` the heaviest statements an attacker
// has found, in a loop, while the others run the mix with a cheap analytics query added; the
// soak then fails unless every other caller's p99 stays under a second.

/** Statements that once held the analytics database for seconds to minutes. */
export const HEAVY_QUERIES = [
  // json_each over a generated string: counted as one table, visits 3×10⁷ rows.
  "SELECT count(*) FROM json_each('[' || replace(hex(zeroblob(150000)), '00', '0,') || '0]') a, users b",
  // A megabyte made per row of a 4,000-row table.
  "SELECT count(*) FROM error_logs a WHERE length(hex(zeroblob(1000000 + a.id))) > 0",
  // A max() estimated at √n rows that reads every one, 100 KB each.
  "SELECT max(length(randomblob(100000) || a.id)) FROM error_logs a",
];

export const HEAVY = process.env.SOAK_HEAVY_QUERY === "1";

/** What the other callers may wait at the 99th percentile while the heavy caller runs. */
export const OTHERS_P99_MS = 1000;

type Call = (sql: string) => Promise<{ isError: boolean; text: string }>;

/** The heavy caller: its statements in turn until the deadline; counts refusals and runs. */
export async function heavyCaller(
  call: Call,
  deadline: number,
): Promise<{ sent: number; refused: number; ran: number; ms: number[] }> {
  const stats = { sent: 0, refused: 0, ran: 0, ms: [] as number[] };
  while (Date.now() < deadline) {
    const sql = HEAVY_QUERIES[stats.sent % HEAVY_QUERIES.length] as string;
    const started = performance.now();
    const answer = await call(sql).catch((error: unknown) => ({
      isError: true,
      text: String(error),
    }));
    stats.ms.push(performance.now() - started);
    stats.sent++;
    if (answer.isError) stats.refused++;
    else stats.ran++;
  }
  return stats;
}
