import type { ColdStart } from "./cold-start.ts";
import { ALL_WORKERS } from "./contenders.ts";
import { count, kib, ms, ratio, table } from "./format.ts";
import type { LoadResult } from "./load/types.ts";
import { figures, roundRatio, type Sample, type Spread } from "./results.ts";
import type { Problem } from "./scenario-run.ts";
import type { Scenario } from "./scenarios.ts";
import type { AssetsSize, BundleSize } from "./sizes.ts";
import { met, type Target } from "./targets.ts";

const labelOf = (id: string) => ALL_WORKERS.find((w) => w.id === id)?.label ?? id;

/** Peers whose answer failed its check before load: reported, their runs counted as rejected. */
export function problemSection(problems: Problem[]): string {
  if (problems.length === 0) return "";
  const rows = problems.map((p) => [
    p.scenario,
    labelOf(p.server),
    p.problem.replace(/\|/g, "\\|"),
  ]);
  return `\nPeers whose answer failed its check (not fatal; answers that fail the load check are not counted):\n\n${table(["scenario", "server", "problem"], rows, 3)}\n`;
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

/**
 * Requests/s and latency percentiles (the median round), each beside its ratio to the bare
 * Worker and to the SDK: the median of the ratios taken within each round.
 */
export function loadSection(
  scenarios: Scenario[],
  concurrency: number[],
  samples: Sample[],
): string {
  const rows: string[][] = [];
  for (const scenario of scenarios) {
    for (const c of concurrency) {
      for (const contender of scenario.contenders) {
        const f = figures(samples, scenario.id, c, contender.id);
        if (!f) continue;
        const per = (pick: (r: LoadResult) => number, reference: string) =>
          ratioCell(roundRatio(samples, scenario.id, c, contender.id, [reference], pick));
        const cells = (key: "rps" | "p50" | "p90" | "p99", show: (n: number) => string) => {
          const pick = (r: LoadResult) => r[key];
          return [show(f[key]), per(pick, "bare"), per(pick, "sdk")];
        };
        const rps = roundRatio(samples, scenario.id, c, contender.id, ["bare"]);
        rows.push([
          scenario.label,
          String(c),
          contender.label,
          ...cells("rps", count),
          rps && rps.rounds > 1 ? `${rps.min.toFixed(2)}–${rps.max.toFixed(2)}` : "",
          ...cells("p50", ms),
          ...cells("p99", ms),
          count(f.answers),
          f.bad + f.errors === 0 ? "0" : `**${f.bad} bad, ${f.errors} errors**`,
        ]);
      }
      for (const { contender, reason } of scenario.absent)
        rows.push([
          scenario.label,
          String(c),
          contender.label,
          "—",
          reason,
          ...Array<string>(10).fill(""),
        ]);
    }
  }
  const header = ["scenario", "c", "server", "req/s", "÷bare", "÷SDK", "÷bare spread"];
  header.push("p50 ms", "÷bare", "÷SDK", "p99 ms", "÷bare", "÷SDK", "answers", "rejected");
  return table(header, rows, 3);
}

export function sizeSection(sizes: BundleSize[], assets: AssetsSize | undefined): string {
  const reference = (worker: string) =>
    sizes.find((s) => s.worker === (worker.startsWith("hello-") ? "hello-sdk" : "sdk"));
  const rows = sizes.map((s) => {
    const sdk = reference(s.worker);
    return [
      labelOf(s.worker),
      kib(s.bytes),
      kib(s.gzip),
      ratio(s.gzip, sdk?.gzip),
      kib(s.minGzip),
      ratio(s.minGzip, sdk?.minGzip),
    ];
  });
  rows.push(
    assets
      ? [
          `playground assets (web/dist, ${assets.files} files)`,
          kib(assets.bytes),
          kib(assets.gzip),
          "",
          "",
          "",
        ]
      : ["playground assets (web/dist missing)", "–", "–", "", "", ""],
  );
  return table(
    ["Worker", "bundle KiB", "gzip -9 KiB", "÷SDK", "minified gzip KiB", "÷SDK"],
    rows,
    1,
  );
}

export function coldSection(coldStarts: ColdStart[]): string {
  const of = (worker: string) => coldStarts.find((s) => s.worker === worker)?.median;
  const rows = coldStarts.map((s) => {
    const sdk = of(s.worker.startsWith("hello-") ? "hello-sdk" : "sdk");
    return [
      labelOf(s.worker),
      ms(s.median),
      ms(Math.min(...s.samples)),
      ms(Math.max(...s.samples)),
      ratio(s.median, of("bare")),
      ratio(s.median, sdk),
    ];
  });
  return table(["Worker", "median ms", "min", "max", "÷bare", "÷SDK"], rows, 1);
}
