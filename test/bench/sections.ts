import type { ColdStart } from "./cold-start.ts";
import { median } from "./stats.ts";
import { folderOf, type Contender } from "./contenders.ts";
import { count, kib, ms, ratio, table } from "./format.ts";
import type { LoadResult } from "./load/types.ts";
import { figures, roundRatio, runsOf, spreadOf, type Sample, type Spread } from "./results.ts";
import {
  FLAT_PERCENT,
  growthAfterWarmup,
  warmupSamples,
  WORKING_SIZE_REQUESTS,
  type Memory,
} from "./memory.ts";
import type { Problem } from "./scenario-run.ts";
import type { Scenario } from "./scenarios.ts";
import type { AssetsSize, BundleSize } from "./sizes.ts";
import { met, type Target } from "./targets.ts";

const find = (workers: Contender[], id: string) => workers.find((w) => w.id === id);
const labelOf = (workers: Contender[], id: string) => find(workers, id)?.label ?? id;
/** The baseline of a current Worker (BENCH_BASELINE), when the run has one. */
const baselineOf = (workers: Contender[], id: string) => workers.find((w) => w.baseline?.of === id);
const cellText = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|");
/** A cell saying why a server has no figures (cut short; the .json beside the report has it all). */
const failed = (problem: string) => `failed: ${cellText(problem.slice(0, 200))}`;

/**
 * Peers (and baselines) whose answer failed its check before load: reported, their runs counted
 * as rejected.
 */
export function problemSection(problems: Problem[], workers: Contender[]): string {
  if (problems.length === 0) return "";
  const rows = problems.map((p) => [p.scenario, labelOf(workers, p.server), cellText(p.problem)]);
  return `\nPeers and baselines whose answer failed its check (not fatal; answers that fail the load check are not counted):\n\n${table(["scenario", "server", "problem"], rows, 3)}\n`;
}

function spreadText(t: Target): string {
  const m = t.measured;
  if (!m) return "";
  const digits = t.unit === "×" ? 2 : 1;
  return m.rounds > 1 ? `${m.min.toFixed(digits)}–${m.max.toFixed(digits)} (${m.rounds})` : "";
}

export function targetSection(targets: Target[]): string {
  const rows = targets.map((t) => {
    const digits = t.unit === "×" ? 2 : 1;
    const verdict = met(t);
    return [
      t.goal,
      t.measured
        ? `${t.measured.value.toFixed(digits)}${t.unit}`
        : `— (${t.missing ?? "not measured"})`,
      spreadText(t),
      `${t.atLeast ? "≥" : "≤"} ${t.limit}${t.unit}`,
      verdict === undefined ? "—" : verdict ? "met" : "**not met**",
    ];
  });
  return table(["target", "measured", "spread (min–max, rounds)", "goal", "met"], rows, 1);
}

const ratioCell = (spread: Spread | undefined) => (spread ? ratio(spread.value, 1) : "–");
const spreadCell = (spread: Spread | undefined) =>
  spread && spread.rounds > 1 ? `${spread.min.toFixed(2)}–${spread.max.toFixed(2)}` : "";

/**
 * Requests/s and latency percentiles (the median round), each beside its ratio to the bare
 * Worker and to the SDK: the median of the ratios taken within each round. With a baseline
 * (BENCH_BASELINE), edgemcp's and the hub's rows add their requests/s ÷ the baseline's. A server
 * that failed its check before load has the problem in its row (it alone when it was not served).
 */
export function loadSection(
  scenarios: Scenario[],
  concurrency: number[],
  samples: Sample[],
  problems: Problem[],
): string {
  const workers = scenarios.flatMap((s) => s.contenders);
  const compared = workers.some((w) => w.role === "baseline");
  const rows: string[][] = [];
  const header = ["scenario", "c", "server", "req/s", "÷bare", "÷SDK", "÷bare spread"];
  if (compared) header.push("now ÷ baseline", "spread");
  header.push("p50 ms", "÷bare", "÷SDK", "p99 ms", "÷bare", "÷SDK", "answers", "rejected");
  const missing = (scenario: Scenario, c: number, contender: Contender, why: string) =>
    rows.push([
      scenario.label,
      String(c),
      contender.label,
      "—",
      why,
      ...Array<string>(header.length - 5).fill(""),
    ]);
  for (const scenario of scenarios) {
    for (const c of concurrency) {
      for (const contender of scenario.contenders) {
        const f = figures(samples, scenario.id, c, contender.id);
        const problem = problems.find(
          (p) => p.scenario === scenario.id && p.server === contender.id,
        );
        if (!f) {
          if (problem) missing(scenario, c, contender, failed(problem.problem));
          continue;
        }
        const per = (pick: (r: LoadResult) => number, reference: string) =>
          ratioCell(roundRatio(samples, scenario.id, c, contender.id, [reference], pick));
        const cells = (key: "rps" | "p50" | "p90" | "p99", show: (n: number) => string) => {
          const pick = (r: LoadResult) => r[key];
          return [show(f[key]), per(pick, "bare"), per(pick, "sdk")];
        };
        const rps = roundRatio(samples, scenario.id, c, contender.id, ["bare"]);
        const baseline = scenario.contenders.find((w) => w.baseline?.of === contender.id);
        const now = baseline && roundRatio(samples, scenario.id, c, contender.id, [baseline.id]);
        rows.push([
          scenario.label,
          String(c),
          contender.label,
          ...cells("rps", count),
          spreadCell(rps),
          ...(compared ? [baseline ? ratioCell(now) : "", spreadCell(now)] : []),
          ...cells("p50", ms),
          ...cells("p99", ms),
          count(f.answers),
          [
            f.bad + f.errors === 0 ? "0" : `**${f.bad} bad, ${f.errors} errors**`,
            ...(problem ? [failed(problem.problem)] : []),
          ].join("; "),
        ]);
      }
      for (const { contender, reason } of scenario.absent) missing(scenario, c, contender, reason);
    }
  }
  return table(header, rows, 3);
}

/** workerd's CPU µs per answer of a run; NaN when it was not read. */
const cpuPerAnswer = (r: LoadResult) =>
  r.serverCpu === undefined || r.answers === 0 ? NaN : (r.serverCpu * 1e6) / r.answers;

/**
 * Where each run's time went: workerd's CPU per answer (beside the bare Worker's in the same
 * round) and how busy workerd and the load generator were (CPU seconds per second of the run, in
 * cores), each the median of the rounds. A server whose workerd is near one core busy is bounded
 * by its own CPU per answer; one whose load generator is near a core is bounded by the load
 * generator. Empty when the run could not read CPU times (no /proc).
 */
export function cpuSection(
  scenarios: Scenario[],
  concurrency: number[],
  samples: Sample[],
): string {
  const rows: string[][] = [];
  const medianOf = (runs: LoadResult[], pick: (r: LoadResult) => number) =>
    spreadOf(runs.map(pick));
  const busy = (cpu: number | undefined, seconds: number) =>
    cpu === undefined || seconds <= 0 ? NaN : cpu / seconds;
  for (const scenario of scenarios) {
    for (const c of concurrency) {
      for (const contender of scenario.contenders) {
        const runs = runsOf(samples, scenario.id, c, contender.id).map((s) => s.result);
        const perAnswer = medianOf(runs, cpuPerAnswer);
        if (!perAnswer) continue;
        const vsBare = roundRatio(samples, scenario.id, c, contender.id, ["bare"], cpuPerAnswer);
        const server = medianOf(runs, (r) => busy(r.serverCpu, r.seconds));
        const load = medianOf(runs, (r) => busy(r.loadCpu, r.seconds));
        rows.push([
          scenario.label,
          String(c),
          contender.label,
          perAnswer.value.toFixed(perAnswer.value >= 100 ? 0 : 1),
          ratioCell(vsBare),
          spreadCell(vsBare),
          server ? server.value.toFixed(2) : "–",
          load ? load.value.toFixed(2) : "–",
        ]);
      }
    }
  }
  if (rows.length === 0) return "";
  const header = ["scenario", "c", "server", "workerd µs/answer", "÷bare", "÷bare spread"];
  header.push("workerd busy (cores)", "load generator busy (cores)");
  return table(header, rows, 3);
}

/** The SDK Worker a Worker's size and cold start are compared with: its hello-world or not. */
const sdkFor = (workers: Contender[], id: string) => {
  const worker = find(workers, id);
  return worker && folderOf(worker).startsWith("hello-") ? "hello-sdk" : "sdk";
};

/**
 * Bundle sizes of `workers` (every Worker built, baselines included), each beside the SDK's; with
 * a baseline, the current Worker's minified gzip size ÷ the baseline's.
 */
export function sizeSection(
  sizes: BundleSize[],
  assets: AssetsSize | undefined,
  workers: Contender[],
): string {
  const of = (worker: string) => sizes.find((s) => s.worker === worker);
  const compared = sizes.some((s) => find(workers, s.worker)?.role === "baseline");
  const rows = sizes.map((s) => {
    const sdk = of(sdkFor(workers, s.worker));
    const baseline = of(baselineOf(workers, s.worker)?.id ?? "");
    return [
      labelOf(workers, s.worker),
      kib(s.bytes),
      kib(s.gzip),
      ratio(s.gzip, sdk?.gzip),
      kib(s.minGzip),
      ratio(s.minGzip, sdk?.minGzip),
      ...(compared ? [baseline ? ratio(s.minGzip, baseline.minGzip) : ""] : []),
    ];
  });
  const blanks = Array<string>(compared ? 4 : 3).fill("");
  rows.push(
    assets
      ? [
          `playground assets (web/dist, ${assets.files} files)`,
          kib(assets.bytes),
          kib(assets.gzip),
          ...blanks,
        ]
      : ["playground assets (web/dist missing)", "–", "–", ...blanks],
  );
  const header = ["Worker", "bundle KiB", "gzip -9 KiB", "÷SDK", "minified gzip KiB", "÷SDK"];
  return table(compared ? [...header, "now ÷ baseline"] : header, rows, 1);
}

/**
 * Cold starts of `workers`, each beside bare's and the SDK's; where workerd's CPU time was read,
 * its median and the median of each run's CPU ÷ bare's in the same run (steadier than the wall
 * clock on a busy machine); with a baseline, the current Worker's median ÷ the baseline's. A
 * baseline that did not answer is listed with the problem.
 */
export function coldSection(coldStarts: ColdStart[], workers: Contender[]): string {
  const of = (worker: string) => {
    const found = coldStarts.find((s) => s.worker === worker);
    return found && !found.problem ? found.median : undefined;
  };
  const bareCpu = coldStarts.find((s) => s.worker === "bare")?.cpu;
  const compared = coldStarts.some((s) => find(workers, s.worker)?.role === "baseline");
  const withCpu = coldStarts.some((s) => s.cpu);
  const rows = coldStarts.map((s) => {
    const label = labelOf(workers, s.worker);
    const blanks = Array<string>((withCpu ? 2 : 0) + (compared ? 1 : 0)).fill("");
    if (s.problem) return [label, "—", failed(s.problem), "", "", "", ...blanks];
    const baseline = baselineOf(workers, s.worker);
    const cpuRatio = s.cpu && bareCpu ? s.cpu.map((v, i) => v / (bareCpu[i] ?? NaN)) : [];
    const finite = cpuRatio.filter((v) => Number.isFinite(v));
    return [
      label,
      ms(s.median),
      ms(Math.min(...s.samples)),
      ms(Math.max(...s.samples)),
      ratio(s.median, of("bare")),
      ratio(s.median, of(sdkFor(workers, s.worker))),
      ...(withCpu
        ? [s.cpu ? ms(median(s.cpu)) : "–", finite.length > 0 ? median(finite).toFixed(2) : "–"]
        : []),
      ...(compared ? [baseline ? ratio(s.median, of(baseline.id)) : ""] : []),
    ];
  });
  const header = ["Worker", "median ms", "min", "max", "÷bare", "÷SDK"];
  const cpu = withCpu ? ["CPU ms", "CPU ÷bare"] : [];
  return table([...header, ...cpu, ...(compared ? ["now ÷ baseline"] : [])], rows, 1);
}

/** The workerd process serving edgemcp: resident memory through a long mixed load. */
export function memorySection(m: Memory): string {
  const mib = (kib: number) => (kib / 1024).toFixed(1);
  const warm = warmupSamples(m);
  const rows = [
    ["at start (first answer given)", mib(m.start)],
    ...m.samples.map((s, i) => [
      `after ${s.requests.toLocaleString("en-US")} requests${i === warm - 1 ? " (end of warm-up)" : ""}`,
      mib(s.kib),
    ]),
  ];
  const growth = growthAfterWarmup(m);
  const verdict = Math.abs(growth) <= FLAT_PERCENT ? "flat" : "**not flat**";
  const warmup = m.samples[warm - 1]?.requests ?? 0;
  const short =
    warmup < WORKING_SIZE_REQUESTS
      ? ` This warm-up (${count(warmup)} requests) ends before the heap reached its working size in longer runs (about ${count(WORKING_SIZE_REQUESTS)}): growth here need not be a leak; run the default ${count(2 * WORKING_SIZE_REQUESTS)} requests to judge.`
      : "";
  return `edgemcp's workerd process (VmRSS from /proc/<pid>/status), 8 connections sending echo (2026 and 2025 wires), tools/list, resources/read, progress streams and one 1 MiB result in a hundred; ${m.failed} answers failed. The first half is warm-up (V8 grows its heap to a working size). Highest reading after warm-up against the highest during it: ${growth >= 0 ? "+" : ""}${growth.toFixed(1)}%, ${verdict} (within ±${FLAT_PERCENT}%).${short}\n\n${table(["when", "VmRSS MiB"], rows, 1)}`;
}
