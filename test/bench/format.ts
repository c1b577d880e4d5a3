import type { Sample } from "./results.ts";

/** Number formats of the report. */
export function count(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** Milliseconds with three significant digits (0.123, 1.23, 12.3, 123). */
export function ms(n: number): string {
  if (n === 0) return "0";
  return n >= 100 ? count(n) : n.toPrecision(3);
}

export function ratio(value: number, reference: number | undefined): string {
  if (reference === undefined || reference === 0) return "–";
  const r = value / reference;
  return r >= 100 ? count(r) : r >= 10 ? r.toFixed(1) : r.toFixed(2);
}

export function kib(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

/** A Markdown table; the first `textColumns` columns are left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][], textColumns = 1): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const align = header.map((_, i) => (i < textColumns ? "---" : "---:"));
  return [line(header), line(align), ...rows.map(line)].join("\n");
}

/** One progress line per measured run. */
export function sampleLine({ concurrency, round, server, result: r }: Sample): string {
  const rejected = r.non2xx + r.invalid + r.errors;
  const latency = `p50 ${ms(r.p50)} p90 ${ms(r.p90)} p99 ${ms(r.p99)} ms`;
  return `  c=${concurrency} round ${round} ${server.padEnd(8)} ${count(r.rps).padStart(7)} req/s  ${latency}  ${count(r.answers)} answers${rejected ? `, ${rejected} REJECTED` : ""}`;
}
