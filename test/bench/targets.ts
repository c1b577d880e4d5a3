import type { ColdStart } from "./cold-start.ts";
import { figures, type Sample } from "./results.ts";
import type { BundleSize } from "./sizes.ts";

/** One of the goals set for edgemcp, and whether this run reached it. */
export type Target = { goal: string; measured: string; met: boolean };

type Inputs = {
  samples: Sample[];
  concurrency: number;
  sizes: BundleSize[];
  coldStarts: ColdStart[];
};

function rps(samples: Sample[], scenario: string, c: number, server: string): number | undefined {
  return figures(samples, scenario, c, server)?.rps;
}

function check(goal: string, value: number | undefined, limit: number, atLeast: boolean): Target[] {
  if (value === undefined || !Number.isFinite(value)) return [];
  return [{ goal, measured: value.toFixed(2), met: atLeast ? value >= limit : value <= limit }];
}

const div = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? undefined : a / b;

/** The goals of the benchmark issue, evaluated on this run (at the highest concurrency run). */
export function targets({ samples, concurrency: c, sizes, coldStarts }: Inputs): Target[] {
  const edge = (scenario: string) => rps(samples, scenario, c, "edgemcp");
  const cold = (worker: string) => coldStarts.find((s) => s.worker === worker)?.median;
  const gzip = (worker: string) => sizes.find((s) => s.worker === worker)?.gzip;
  const minGzip = (worker: string) => sizes.find((s) => s.worker === worker)?.minGzip;
  return [
    ...check(
      `tools/call echo at c=${c}, req/s ÷ bare ≥ 0.85`,
      div(edge("echo"), rps(samples, "echo", c, "bare")),
      0.85,
      true,
    ),
    ...check(
      `tools/call echo at c=${c}, req/s ÷ SDK ≥ 5`,
      div(edge("echo"), rps(samples, "echo", c, "sdk")),
      5,
      true,
    ),
    ...check(
      `tools/list, 1000 tools at c=${c}, req/s ÷ SDK ≥ 100`,
      div(edge("list-1000"), rps(samples, "list-1000", c, "sdk")),
      100,
      true,
    ),
    ...check(
      `tools/call with 1000 tools ÷ with 1 tool, req/s ≥ 0.95 (no slower)`,
      div(edge("echo-1000"), edge("echo")),
      0.95,
      true,
    ),
    ...check("cold start ÷ bare ≤ 1.2", div(cold("edgemcp"), cold("bare")), 1.2, false),
    ...check(
      "hello-world gzip bundle ÷ SDK's ≤ 0.40",
      div(gzip("hello-edgemcp"), gzip("hello-sdk")),
      0.4,
      false,
    ),
    ...check(
      "hello-world minified gzip bundle ÷ SDK's ≤ 0.40",
      div(minGzip("hello-edgemcp"), minGzip("hello-sdk")),
      0.4,
      false,
    ),
  ];
}
