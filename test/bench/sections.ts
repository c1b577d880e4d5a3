import type { ColdStart } from "./cold-start.ts";
import { ALL_WORKERS } from "./contenders.ts";
import { count, kib, ms, ratio, table } from "./format.ts";
import { figures, type Sample } from "./results.ts";
import type { Scenario } from "./scenarios.ts";
import type { AssetsSize, BundleSize } from "./sizes.ts";
import type { Target } from "./targets.ts";

const labelOf = (id: string) => ALL_WORKERS.find((w) => w.id === id)?.label ?? id;

export function targetSection(targets: Target[]): string {
  const rows = targets.map((t) => [t.goal, t.measured, t.met ? "yes" : "**no**"]);
  return table(["goal", "measured", "met"], rows, 1);
}

/** Requests/s and latency percentiles, each beside its ratio to the bare Worker and to the SDK. */
export function loadSection(
  scenarios: Scenario[],
  concurrency: number[],
  samples: Sample[],
): string {
  const rows: string[][] = [];
  for (const scenario of scenarios) {
    for (const c of concurrency) {
      const bare = figures(samples, scenario.id, c, "bare");
      const sdk = figures(samples, scenario.id, c, "sdk");
      for (const contender of scenario.contenders) {
        const f = figures(samples, scenario.id, c, contender.id);
        if (!f) continue;
        const cells = (key: "rps" | "p50" | "p90" | "p99", show: (n: number) => string) => [
          show(f[key]),
          ratio(f[key], bare?.[key]),
          ratio(f[key], sdk?.[key]),
        ];
        rows.push([
          scenario.label,
          String(c),
          contender.label,
          ...cells("rps", count),
          ...cells("p50", ms),
          ...cells("p90", ms),
          ...cells("p99", ms),
          count(f.answers),
          f.bad + f.errors === 0 ? "0" : `**${f.bad} bad, ${f.errors} errors**`,
        ]);
      }
    }
  }
  const header = ["scenario", "c", "server", "req/s", "÷bare", "÷SDK", "p50 ms", "÷bare", "÷SDK"];
  header.push("p90 ms", "÷bare", "÷SDK", "p99 ms", "÷bare", "÷SDK", "answers", "rejected");
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
