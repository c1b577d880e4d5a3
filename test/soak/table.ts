import { percentile } from "../bench/stats.ts";

/** One operation's figures over a run. */
export type OperationStats = { count: number; errors: number; ms: number[] };

/** The per-operation table: count, errors, p50 and p99. */
export function operationTable(perOperation: Map<string, OperationStats>): string {
  const lines = ["\n operation                    count  errors    p50 ms    p99 ms"];
  for (const [name, stats] of perOperation) {
    const sorted = [...stats.ms].sort((a, b) => a - b);
    lines.push(
      ` ${name.padEnd(27)} ${String(stats.count).padStart(6)} ${String(stats.errors).padStart(7)} ${percentile(sorted, 50).toFixed(1).padStart(9)} ${percentile(sorted, 99).toFixed(1).padStart(9)}`,
    );
  }
  return lines.join("\n");
}
