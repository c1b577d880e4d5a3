import type { ColdStart } from "./cold-start.ts";
import { PEERS } from "./contenders.ts";
import { figures, roundRatio, spreadOf, type Sample, type Spread } from "./results.ts";
import type { Scenario } from "./scenarios.ts";
import type { BundleSize } from "./sizes.ts";

/** One of the goals set for edgemcp (issue 14), and whether this run reached it. */
export type Target = {
  goal: string;
  /** The measured value (a ratio, or kibibytes), with its spread across rounds when it has one. */
  measured: Spread | undefined;
  /** What is printed after the value: "×" for ratios, " KiB" for sizes. */
  unit: string;
  limit: number;
  atLeast: boolean;
  /** Why there is no value, when there is none. */
  missing?: string;
};

type Inputs = {
  samples: Sample[];
  scenarios: Scenario[];
  concurrency: number[];
  sizes: BundleSize[];
  coldStarts: ColdStart[];
};

export const met = (t: Target): boolean | undefined =>
  t.measured === undefined
    ? undefined
    : t.atLeast
      ? t.measured.value >= t.limit
      : t.measured.value <= t.limit;

/** The targets table of issue 14, evaluated on this run. */
export function targets({ samples, scenarios, concurrency, sizes, coldStarts }: Inputs): Target[] {
  const ran = new Set(scenarios.map((s) => s.id));
  const list: Target[] = [];
  const ratio = (
    goal: string,
    scenario: string,
    server: string,
    reference: string,
    limit: number,
  ) => {
    for (const c of concurrency) {
      const measured = ran.has(scenario)
        ? roundRatio(samples, scenario, c, server, [reference])
        : undefined;
      list.push({
        goal: `${goal}, c=${c}`,
        measured,
        unit: "×",
        limit,
        atLeast: true,
        missing: ran.has(scenario) ? "no answers" : `scenario ${scenario} not run`,
      });
    }
  };
  ratio("2026-07-28 `tools/call` echo ÷ bare", "echo", "edgemcp", "bare", 0.85);
  ratio("2025 `tools/call` echo after `initialize` ÷ bare", "echo-2025", "edgemcp", "bare", 0.85);
  ratio("hub → in-process server, echo ÷ bare", "hub", "hub", "bare", 0.6);
  ratio(
    "10 progress notifications (SSE) ÷ bare streaming the same 11 events",
    "progress",
    "edgemcp",
    "bare-bytes",
    0.8,
  );
  ratio("1 MiB text result ÷ bare answering the same bytes", "big", "edgemcp", "bare-bytes", 0.8);
  ratio(
    "`tools/list`, 1000 tools ÷ bare answering the same bytes",
    "list-1000",
    "edgemcp",
    "bare-bytes",
    0.8,
  );

  const cold = (worker: string) => coldStarts.find((s) => s.worker === worker)?.samples;
  const edgeCold = cold("edgemcp");
  const bareCold = cold("bare");
  const liteCold = cold("mcp-lite");
  const perRun = (a: number[] | undefined, b: number[] | undefined) =>
    a && b ? spreadOf(a.map((v, i) => v / (b[i] ?? NaN))) : undefined;
  const lite = perRun(liteCold, bareCold);
  list.push({
    goal: `cold start (spawn → first answer) ÷ bare${lite ? ` (mcp-lite: ${lite.value.toFixed(2)})` : ""}`,
    measured: perRun(edgeCold, bareCold),
    unit: "×",
    limit: 1.2,
    atLeast: false,
    missing: "no cold starts",
  });

  const size = (worker: string) => sizes.find((s) => s.worker === worker)?.minGzip;
  const hello = size("hello-edgemcp");
  const liteSize = size("hello-mcp-lite");
  list.push({
    goal: `hello-world bundle with zod/mini, minified gzip${liteSize ? ` (mcp-lite: ${(liteSize / 1024).toFixed(1)} KiB, 2025 era only)` : ""}`,
    measured:
      hello === undefined
        ? undefined
        : { value: hello / 1024, min: hello / 1024, max: hello / 1024, rounds: 1 },
    unit: " KiB",
    limit: 28,
    atLeast: false,
    missing: "not built",
  });

  for (const scenario of scenarios) {
    const subject = scenario.contenders.find((c) => c.role === "subject")!;
    const peers = scenario.contenders.filter((c) => PEERS.includes(c)).map((c) => c.id);
    for (const c of concurrency) {
      const rps = (id: string) => figures(samples, scenario.id, c, id)?.rps ?? 0;
      const fastest = [...peers].sort((a, b) => rps(b) - rps(a))[0];
      const label = PEERS.find((p) => p.id === fastest)?.label;
      list.push({
        goal: `${scenario.label}, c=${c}: req/s ÷ the fastest peer${label ? ` (${label})` : ""}`,
        measured:
          peers.length > 0 ? roundRatio(samples, scenario.id, c, subject.id, peers) : undefined,
        unit: "×",
        limit: 1,
        atLeast: true,
        missing: peers.length === 0 ? "no peer serves it" : "no answers",
      });
    }
  }
  return list;
}
