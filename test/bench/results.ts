import type { LoadResult } from "./load/types.ts";
import { median } from "./stats.ts";

/** One measured run of one server. */
export type Sample = {
  scenario: string;
  concurrency: number;
  server: string;
  round: number;
  result: LoadResult;
};

/**
 * A server's figures for a scenario and concurrency: those of its median round (by requests/s);
 * counts are summed over rounds.
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

/** The runs of one server in one scenario at one concurrency, every round. */
export function runsOf(
  samples: Sample[],
  scenario: string,
  concurrency: number,
  server: string,
): Sample[] {
  return samples.filter(
    (s) => s.scenario === scenario && s.concurrency === concurrency && s.server === server,
  );
}

export function figures(
  samples: Sample[],
  scenario: string,
  concurrency: number,
  server: string,
): Figures | undefined {
  const runs = runsOf(samples, scenario, concurrency, server).map((s) => s.result);
  if (runs.length === 0) return undefined;
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  const mid = sorted[Math.ceil(sorted.length / 2) - 1]!;
  return {
    rps: mid.rps,
    p50: mid.p50,
    p90: mid.p90,
    p99: mid.p99,
    answers: sum((r) => r.answers),
    bad: sum((r) => r.non2xx + r.invalid),
    errors: sum((r) => r.errors),
  };
}

/** A ratio measured once per round: its median and its spread (lowest and highest round). */
export type Spread = { value: number; min: number; max: number; rounds: number };

export function spreadOf(values: number[]): Spread | undefined {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return undefined;
  return {
    value: median(finite),
    min: Math.min(...finite),
    max: Math.max(...finite),
    rounds: finite.length,
  };
}

/**
 * A figure of `server` divided by the same figure of the reference in the same round (servers
 * of one round run back to back, under the same load of the machine), over the rounds. With
 * several references, each round divides by the highest of them (the fastest peer, say).
 */
export function roundRatio(
  samples: Sample[],
  scenario: string,
  concurrency: number,
  server: string,
  references: string[],
  pick: (r: LoadResult) => number = (r) => r.rps,
): Spread | undefined {
  const ratios: number[] = [];
  for (const sample of runsOf(samples, scenario, concurrency, server)) {
    const others = references.flatMap((reference) =>
      runsOf(samples, scenario, concurrency, reference)
        .filter((s) => s.round === sample.round)
        .map((s) => pick(s.result)),
    );
    if (others.length === 0) continue;
    const reference = Math.max(...others);
    if (reference > 0) ratios.push(pick(sample.result) / reference);
  }
  return spreadOf(ratios);
}
