import type { ColdStart } from "./cold-start.ts";
import { PEERS } from "./contenders.ts";
import { figures, roundRatio, spreadOf, type Sample, type Spread } from "./results.ts";
import type { Scenario } from "./scenarios.ts";
import type { BundleSize } from "./sizes.ts";

/** One of the goals set for edgemcp's speed and size, and whether this run reached it. */
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

/** The targets table, evaluated on this run. */
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

  list.push(...coldTargets(coldStarts));

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

/** The cold-start goal: at most this many times the bare Worker's, and at most mcp-lite's. */
export const COLD_START_LIMIT = 1.2;

/**
 * Cold start ÷ bare, each run's start divided by the bare Worker's in the same run, for the
 * one-tool Worker (hello edgemcp against hello mcp-lite, the smallest peer) and for the full bench
 * Worker (against mcp-lite's): the goal is the lower of 1.2 and the peer's own ratio in this run.
 */
export function coldTargets(coldStarts: ColdStart[]): Target[] {
  const samples = (worker: string) => {
    const found = coldStarts.find((s) => s.worker === worker);
    return found && !found.problem && found.samples.length > 0 ? found.samples : undefined;
  };
  const bare = samples("bare");
  const perRun = (worker: string) => {
    const own = samples(worker);
    return own && bare ? spreadOf(own.map((v, i) => v / (bare[i] ?? NaN))) : undefined;
  };
  const bareCpu = coldStarts.find((s) => s.worker === "bare")?.cpu;
  const cpuRatio = (worker: string) => {
    const own = coldStarts.find((s) => s.worker === worker)?.cpu;
    return own && bareCpu ? spreadOf(own.map((v, i) => v / (bareCpu[i] ?? NaN))) : undefined;
  };
  const row = (what: string, subject: string, peer: string, peerLabel: string): Target => {
    const lite = perRun(peer);
    const limit = lite ? Math.min(COLD_START_LIMIT, roundTo(lite.value)) : COLD_START_LIMIT;
    const [ownCpu, peerCpu] = [cpuRatio(subject), cpuRatio(peer)];
    const cpu =
      ownCpu && peerCpu
        ? `; workerd CPU ÷ bare's ${ownCpu.value.toFixed(2)}, ${peerLabel}'s ${peerCpu.value.toFixed(2)}`
        : "";
    return {
      goal: `cold start (spawn → first answered \`tools/call\`) ÷ bare, ${what}: ≤ ${COLD_START_LIMIT} and ≤ ${peerLabel}'s (${lite ? lite.value.toFixed(2) : "not measured"}${cpu})`,
      measured: perRun(subject),
      unit: "×",
      limit,
      atLeast: false,
      missing: bare ? `${subject} not cold-started` : "no cold starts of bare",
    };
  };
  return [
    row(
      "one-tool Worker (hello edgemcp, zod/mini)",
      "hello-edgemcp",
      "hello-mcp-lite",
      "hello mcp-lite",
    ),
    row("full bench Worker (edgemcp)", "edgemcp", "mcp-lite", "mcp-lite"),
  ];
}

/** A ratio as the report prints it (two decimals), so the goal shown is the goal applied. */
const roundTo = (value: number) => Math.round(value * 100) / 100;
