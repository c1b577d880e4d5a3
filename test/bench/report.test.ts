import { describe, expect, it } from "vitest";
import type { ColdStart } from "./cold-start.ts";
import { commandLines } from "./commands.ts";
import { ALL_WORKERS, baselines, type Checkout } from "./contenders.ts";
import type { LoadGenerator, LoadResult } from "./load/types.ts";
import type { Options } from "./options.ts";
import type { Sample } from "./results.ts";
import type { Problem } from "./scenario-run.ts";
import { SCENARIOS, withBaselines } from "./scenarios.ts";
import {
  coldSection,
  cpuSection,
  loadSection,
  memorySection,
  sizeSection,
  targetSection,
} from "./sections.ts";
import type { Memory } from "./memory.ts";
import type { BundleSize } from "./sizes.ts";
import { met, targets } from "./targets.ts";

const CHECKOUT: Checkout = { root: "/work/old", commit: "abc1234", changed: false };
const BASELINES = baselines(CHECKOUT, ["edgemcp", "hub", "hello-edgemcp", "bare"]);
const WORKERS = [...ALL_WORKERS, ...BASELINES];
const scenario = (id: string) => SCENARIOS.find((s) => s.id === id)!;

function result(rps: number): LoadResult {
  return {
    answers: rps,
    seconds: 1,
    rps,
    p50: 1000 / rps,
    p90: 0,
    p99: 0,
    non2xx: 0,
    invalid: 0,
    errors: 0,
  };
}

/** Two rounds at c=1 of the given servers' req/s. */
function samples(id: string, rps: Record<string, [number, number]>): Sample[] {
  return Object.entries(rps).flatMap(([server, rounds]) =>
    rounds.map((value, i) => ({
      scenario: id,
      concurrency: 1,
      server,
      round: i + 1,
      result: result(value),
    })),
  );
}

/** The cells of the table row whose server cell is `label`. */
function row(table: string, label: string): string[] {
  const line = table
    .split("\n")
    .find((l) => l.split(" | ")[2] === label || l.startsWith(`| ${label} |`));
  if (!line) throw new Error(`no row ${label} in\n${table}`);
  return line.slice(2, -2).split(" | ");
}

describe("the report with a baseline (BENCH_BASELINE)", () => {
  it("makes a baseline of each subject the other checkout has, labelled with its commit", () => {
    expect(BASELINES.map((b) => [b.id, b.label, b.role])).toEqual([
      ["baseline-edgemcp", "edgemcp (baseline abc1234)", "baseline"],
      ["baseline-hub", "edgemcp hub → edgemcp (baseline abc1234)", "baseline"],
      ["baseline-hello-edgemcp", "hello edgemcp (zod/mini) (baseline abc1234)", "baseline"],
    ]);
    expect(BASELINES[0]?.baseline).toEqual({ of: "edgemcp", checkout: CHECKOUT });
  });

  it("lists the baseline after its subject in the subject's scenarios only", () => {
    const echo = withBaselines(scenario("echo"), BASELINES);
    expect(echo.contenders.map((c) => c.id).slice(-2)).toEqual(["edgemcp", "baseline-edgemcp"]);
    const hub = withBaselines(scenario("hub"), BASELINES);
    expect(hub.contenders.map((c) => c.id).slice(-2)).toEqual(["hub", "baseline-hub"]);
    expect(withBaselines(scenario("echo"), []).contenders).toEqual(scenario("echo").contenders);
  });

  it("shows the baseline's row with its ratio to bare, and now ÷ baseline in edgemcp's", () => {
    const echo = withBaselines(scenario("echo"), BASELINES);
    const measured = samples("echo", {
      bare: [1000, 800],
      hono: [900, 700],
      sdk: [300, 200],
      tmcp: [400, 300],
      edgemcp: [900, 720],
      "baseline-edgemcp": [600, 600],
    });
    const table = loadSection([echo], [1], measured, []);
    expect(table.split("\n")[0]).toContain("| ÷bare spread | now ÷ baseline | spread | p50 ms |");
    const baseline = row(table, "edgemcp (baseline abc1234)");
    expect(baseline.slice(3, 9)).toEqual(["600", "0.60", "2.00", "0.60–0.75", "", ""]);
    const now = row(table, "edgemcp");
    // Round 1: 900 / 600 = 1.5; round 2: 720 / 600 = 1.2; the median (nearest rank) is 1.2.
    expect(now.slice(3, 9)).toEqual(["720", "0.90", "3.00", "0.90–0.90", "1.20", "1.20–1.50"]);
    // The targets stay about this checkout.
    const goals = targets({
      samples: measured,
      scenarios: [echo],
      concurrency: [1],
      sizes: [],
      coldStarts: [],
    });
    expect(goals.find((t) => t.goal.startsWith("2026-07-28"))?.measured?.value).toBe(0.9);
    expect(goals.at(-1)?.measured?.value).toBe(2.25);
  });

  it("lists a baseline that failed its check with the reason, and has no baseline column without one", () => {
    const hub = withBaselines(scenario("hub"), BASELINES);
    const problems: Problem[] = [
      { scenario: "hub", server: "baseline-hub", problem: "HTTP 404: unknown | tool" },
    ];
    const measured = samples("hub", { bare: [1000, 1000], hono: [900, 900], hub: [500, 500] });
    const table = loadSection([hub], [1], measured, problems);
    expect(row(table, "edgemcp hub → edgemcp (baseline abc1234)").slice(3, 5)).toEqual([
      "—",
      "failed: HTTP 404: unknown \\| tool",
    ]);
    expect(row(table, "edgemcp hub → edgemcp")[7]).toBe("–");
    // Served but failing the check: its figures, its rejected answers and why.
    const refused = samples("hub", { "baseline-hub": [0, 0] }).map((s) => ({
      ...s,
      result: { ...s.result, answers: 400, p50: 0.5, invalid: 400 },
    }));
    const rejected = loadSection([hub], [1], [...measured, ...refused], problems);
    const cells = row(rejected, "edgemcp hub → edgemcp (baseline abc1234)");
    expect([cells[3], cells.at(-1)]).toEqual([
      "0",
      "**800 bad, 0 errors**; failed: HTTP 404: unknown \\| tool",
    ]);
    const plain = loadSection([scenario("hub")], [1], measured, []);
    expect(plain).not.toContain("baseline");
  });

  it("adds the baselines to the bundle-size and cold-start tables, with now ÷ baseline", () => {
    const size = (worker: string, minGzip: number): BundleSize => ({
      worker,
      bytes: minGzip * 4,
      gzip: minGzip * 2,
      minGzip,
    });
    const sizes = [
      size("sdk", 40_000),
      size("edgemcp", 20_000),
      size("hello-sdk", 30_000),
      size("hello-edgemcp", 10_000),
      size("baseline-edgemcp", 25_000),
      size("baseline-hello-edgemcp", 8_000),
    ];
    const sizeTable = sizeSection(sizes, undefined, WORKERS);
    expect(sizeTable.split("\n")[0]).toContain("| now ÷ baseline |");
    expect(row(sizeTable, "edgemcp").slice(4)).toEqual(["19.5", "0.50", "0.80"]);
    expect(row(sizeTable, "hello edgemcp (zod/mini) (baseline abc1234)").slice(4)).toEqual([
      "7.8",
      "0.27",
      "",
    ]);
    expect(row(sizeTable, "hello edgemcp (zod/mini)").slice(4)).toEqual(["9.8", "0.33", "1.25"]);
    expect(sizeSection(sizes.slice(0, 4), undefined, WORKERS)).not.toContain("baseline");

    const cold = (worker: string, median: number, problem?: string): ColdStart => ({
      worker,
      samples: problem ? [] : [median],
      median: problem ? 0 : median,
      ...(problem ? { problem } : {}),
    });
    const colds = [
      cold("bare", 10),
      cold("sdk", 40),
      cold("edgemcp", 15),
      cold("hub", 16),
      cold("baseline-edgemcp", 20),
      cold("baseline-hub", 0, "workerd answered 404: no tool"),
    ];
    const coldTable = coldSection(colds, WORKERS);
    expect(row(coldTable, "edgemcp").slice(1)).toEqual([
      "15.0",
      "15.0",
      "15.0",
      "1.50",
      "0.38",
      "0.75",
    ]);
    expect(row(coldTable, "edgemcp (baseline abc1234)").slice(4)).toEqual(["2.00", "0.50", ""]);
    expect(row(coldTable, "edgemcp hub → edgemcp (baseline abc1234)").slice(1, 3)).toEqual([
      "—",
      "failed: workerd answered 404: no tool",
    ]);
    expect(row(coldTable, "edgemcp hub → edgemcp").at(-1)).toBe("–");
  });

  it("carries BENCH_BASELINE in the command that reruns the bench", () => {
    const options: Options = {
      seconds: 0.5,
      maxSeconds: 1,
      warmupSeconds: 0.2,
      rewarmSeconds: 0.2,
      rounds: 1,
      concurrency: [1],
      loadgen: "autocannon",
      scenarios: ["echo"],
      coldRuns: 3,
      sections: ["load"],
      playgroundRuns: 3,
      memoryRequests: 0,
      pin: false,
      quick: true,
      outDir: "/tmp/out",
      baseline: CHECKOUT,
    };
    const generator: LoadGenerator = {
      name: "autocannon",
      version: "8",
      command: () => "autocannon ...",
      run: () => Promise.reject(new Error("not run")),
    };
    const lines = commandLines(options, generator, "bench-results/build");
    expect(lines[1]).toMatch(/ BENCH_BASELINE=\/work\/old .*npm run bench$/);
    expect(lines.some((l) => l.startsWith("(cd /work/old && "))).toBe(true);
  });
});

describe("the memory section", () => {
  const run = (mib: number[]): Memory => ({
    requests: 150_000,
    start: 60 * 1024,
    samples: mib.map((m, i) => ({ requests: (i + 1) * 15_000, kib: m * 1024 })),
    failed: 0,
  });

  it("judges flatness by the highest reading after warm-up (the first half) against the highest during it", () => {
    // Readings swing as the collector runs; the peak after warm-up is what a leak would raise.
    const section = memorySection(run([200, 260, 300, 310, 290, 305, 296, 316, 290, 306]));
    expect(section).toContain(
      "Highest reading after warm-up against the highest during it: +1.9%, flat (within ±5%).",
    );
    expect(section).toContain("| after 75,000 requests (end of warm-up) | 290.0 |");
    expect(section).toContain("| after 150,000 requests | 306.0 |");
    expect(section).toContain("| at start (first answer given) | 60.0 |");
  });

  it("says when memory still grows after warm-up", () => {
    const section = memorySection(run([200, 230, 260, 280, 300, 310, 315, 320, 325, 330]));
    expect(section).toContain(": +10.0%, **not flat**");
    expect(section).not.toContain("working size in longer runs");
  });

  it("says when the run is too short for its warm-up to reach the working size", () => {
    const quick = run([80, 100, 120, 140, 160, 136, 155, 172, 177, 181]);
    quick.samples = quick.samples.map((s, i) => ({ ...s, requests: (i + 1) * 500 }));
    expect(memorySection(quick)).toContain(
      "This warm-up (2,500 requests) ends before the heap reached its working size in longer runs (about 75,000)",
    );
  });
});

describe("the cold-start targets", () => {
  const runs = (worker: string, samples: number[]): ColdStart => ({
    worker,
    samples,
    median: [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0,
  });
  const goals = (colds: ColdStart[]) =>
    targets({ samples: [], scenarios: [], concurrency: [1], sizes: [], coldStarts: colds }).filter(
      (t) => t.goal.startsWith("cold start"),
    );

  it("has one row for the one-tool Worker and one for the full bench Worker, each run ÷ bare's", () => {
    const [hello, full] = goals([
      runs("bare", [40, 50, 80]),
      runs("hello-mcp-lite", [48, 60, 96]),
      runs("hello-edgemcp", [44, 65, 80]),
      runs("mcp-lite", [60, 70, 120]),
      runs("edgemcp", [80, 90, 200]),
    ]);
    // Per run: 44/40 = 1.10, 65/50 = 1.30, 80/80 = 1.00; the median is 1.10.
    expect(hello?.goal).toMatch(
      /one-tool Worker \(hello edgemcp, zod\/mini\).*hello mcp-lite's \(1\.20\)/,
    );
    expect(hello?.measured).toEqual({ value: 1.1, min: 1, max: 1.3, rounds: 3 });
    expect([hello?.limit, met(hello!)]).toEqual([1.2, true]);
    // mcp-lite's runs: 1.50, 1.40, 1.50 (median 1.50): the goal stays 1.2; edgemcp's 2.00, 1.80, 2.50.
    expect(full?.goal).toMatch(/full bench Worker \(edgemcp\).*mcp-lite's \(1\.50\)/);
    expect([full?.measured?.value, full?.limit, met(full!)]).toEqual([2, 1.2, false]);
  });

  it("names workerd's CPU time ÷ bare's of the Worker and its peer when it was read", () => {
    const [hello] = goals([
      { ...runs("bare", [40, 50]), cpu: [30, 40] },
      { ...runs("hello-mcp-lite", [48, 60]), cpu: [39, 52] },
      { ...runs("hello-edgemcp", [44, 65]), cpu: [45, 56] },
    ]);
    // CPU per run: edgemcp 1.50 and 1.40, mcp-lite 1.30 and 1.30 (nearest-rank medians).
    expect(hello?.goal).toContain("(1.20; workerd CPU ÷ bare's 1.40, hello mcp-lite's 1.30)");
  });

  it("holds the Worker to mcp-lite's ratio in the same run when that is below 1.2", () => {
    const [hello] = goals([
      runs("bare", [40, 40, 40]),
      runs("hello-mcp-lite", [44, 46, 45]),
      runs("hello-edgemcp", [46, 47, 46]),
    ]);
    // mcp-lite 1.125 (printed 1.13) beats edgemcp's 1.15, though both are within 1.2.
    expect(hello?.limit).toBe(1.13);
    expect(met(hello!)).toBe(false);
    expect(targetSection([hello!])).toContain("| ≤ 1.13× | **not met** |");
  });

  it("says why a row has no figure: no bare runs, or the Worker not started", () => {
    const none = goals([]);
    expect(none.map((t) => [t.measured, t.missing, t.limit])).toEqual([
      [undefined, "no cold starts of bare", 1.2],
      [undefined, "no cold starts of bare", 1.2],
    ]);
    const [, full] = goals([
      runs("bare", [40]),
      { worker: "edgemcp", samples: [], median: 0, problem: "workerd answered 500" },
    ]);
    expect([full?.measured, full?.missing]).toEqual([undefined, "edgemcp not cold-started"]);
    expect(full?.goal).toContain("mcp-lite's (not measured)");
  });
});

describe("workerd's CPU time in the cold-start table", () => {
  it("shows each Worker's median CPU ms and the median of its runs' CPU ÷ bare's", () => {
    const colds: ColdStart[] = [
      { worker: "bare", samples: [40, 50, 60], median: 50, cpu: [30, 30, 40] },
      { worker: "hello-edgemcp", samples: [60, 70, 80], median: 70, cpu: [45, 60, 44] },
      { worker: "baseline-edgemcp", samples: [], median: 0, problem: "workerd exited" },
    ];
    const table = coldSection(colds, WORKERS);
    expect(table.split("\n")[0]).toContain("| ÷SDK | CPU ms | CPU ÷bare | now ÷ baseline |");
    // Runs: 45/30 = 1.50, 60/30 = 2.00, 44/40 = 1.10; the median is 1.50.
    expect(row(table, "hello edgemcp (zod/mini)").slice(6, 8)).toEqual(["45.0", "1.50"]);
    expect(row(table, "bare Worker").slice(6, 8)).toEqual(["30.0", "1.00"]);
    expect(row(table, "edgemcp (baseline abc1234)")).toHaveLength(9);
    const noCpu = colds.map(({ cpu: _, ...rest }) => rest);
    expect(coldSection(noCpu, WORKERS)).not.toContain("CPU");
  });
});

describe("the CPU-per-answer section", () => {
  /** A c=32 run of 1 s: `answers` answers, workerd and the load generator busy as given. */
  const run = (
    server: string,
    round: number,
    answers: number,
    serverCpu?: number,
    loadCpu?: number,
  ): Sample => ({
    scenario: "echo",
    concurrency: 32,
    server,
    round,
    result: {
      ...result(answers),
      ...(serverCpu === undefined ? {} : { serverCpu }),
      ...(loadCpu === undefined ? {} : { loadCpu }),
    },
  });

  it("shows workerd's µs per answer beside bare's, and how busy workerd and the load generator were", () => {
    const measured = [
      // bare: bounded by the load generator (a whole core), workerd half busy.
      run("bare", 1, 10_000, 0.5, 1.0),
      run("bare", 2, 10_000, 0.6, 0.98),
      // edgemcp: its workerd a core busy, 4 000 and 5 000 answers.
      run("edgemcp", 1, 4_000, 1.0, 0.45),
      run("edgemcp", 2, 5_000, 1.0, 0.5),
    ];
    const table = cpuSection([scenario("echo")], [32], measured);
    expect(table.split("\n")[0]).toBe(
      "| scenario | c | server | workerd µs/answer | ÷bare | ÷bare spread | workerd busy (cores) | load generator busy (cores) |",
    );
    // bare: 50 and 60 µs per answer (median, nearest rank: 50).
    expect(row(table, "bare Worker").slice(3)).toEqual([
      "50.0",
      "1.00",
      "1.00–1.00",
      "0.50",
      "0.98",
    ]);
    // edgemcp: 250 and 200 µs; within rounds 250 / 50 = 5.00 and 200 / 60 = 3.33.
    expect(row(table, "edgemcp").slice(3)).toEqual(["200", "3.33", "3.33–5.00", "1.00", "0.45"]);
  });

  it("leaves out servers without readings, and is empty when no run read CPU times", () => {
    const partial = [run("bare", 1, 10_000, 0.5), run("edgemcp", 1, 4_000)];
    const table = cpuSection([scenario("echo")], [32], partial);
    expect(row(table, "bare Worker").slice(3)).toEqual(["50.0", "1.00", "", "0.50", "–"]);
    expect(table).not.toMatch(/\| edgemcp \|/);
    expect(cpuSection([scenario("echo")], [32], [run("edgemcp", 1, 4_000)])).toBe("");
  });
});
