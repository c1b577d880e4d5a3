import type { LoadResult } from "./load/types.ts";

/** One measured run of one server. */
export type Sample = {
  scenario: string;
  concurrency: number;
  server: string;
  round: number;
  result: LoadResult;
};

/**
 * A server's figures for a scenario and concurrency: those of its best round (most requests/s),
 * since other work on the machine only ever slows a run down; counts are summed over rounds.
 */
export type Figures = {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  answers: number;
  /** Non-2xx answers plus 2xx answers that failed the check. */
  bad: number;
  errors: number;
};

export function figures(
  samples: Sample[],
  scenario: string,
  concurrency: number,
  server: string,
): Figures | undefined {
  const runs = samples
    .filter((s) => s.scenario === scenario && s.concurrency === concurrency && s.server === server)
    .map((s) => s.result);
  if (runs.length === 0) return undefined;
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  const best = runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  return {
    rps: best.rps,
    p50: best.p50,
    p90: best.p90,
    p99: best.p99,
    answers: sum((r) => r.answers),
    bad: sum((r) => r.non2xx + r.invalid),
    errors: sum((r) => r.errors),
  };
}
