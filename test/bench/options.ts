import { execFileSync } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import { ROOT } from "./paths.ts";

/** Settings of one `npm run bench`, from BENCH_* environment variables. */
export type Options = {
  /** Shortest measured time per run, in seconds. */
  seconds: number;
  /** Longest a run may be stretched to collect enough answers from a slow server. */
  maxSeconds: number;
  /** Unmeasured load before each run, in seconds. */
  warmupSeconds: number;
  /** Rounds per scenario; odd and even rounds run the servers in opposite orders. */
  rounds: number;
  concurrency: number[];
  loadgen: "wrk" | "autocannon";
  /** Scenario ids to run (all when empty). */
  scenarios: string[];
  /** Cold starts per Worker; the median is reported. */
  coldRuns: number;
  /** Sections to run: `load` (servers: sizes, cold starts, load) and `playground`; both when empty. */
  sections: string[];
  /** Page loads timed in Chromium for the playground section. */
  playgroundRuns: number;
  /** Where reports go: BENCH_OUT as given when absolute, else under the repository root. */
  outDir: string;
};

const SECTIONS = ["load", "playground"];

function number(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number.`);
  return value;
}

function list(name: string): string[] {
  return (process.env[name] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk prints its usage and exits 1 on --version; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

function loadgen(): Options["loadgen"] {
  const wanted = process.env.BENCH_LOADGEN ?? "";
  if (wanted === "wrk" || wanted === "autocannon") return wanted;
  if (wanted !== "") throw new Error("BENCH_LOADGEN must be wrk or autocannon.");
  return hasWrk() ? "wrk" : "autocannon";
}

function sections(): string[] {
  const wanted = list("BENCH_SECTIONS");
  const unknown = wanted.filter((s) => !SECTIONS.includes(s));
  if (unknown.length > 0)
    throw new Error(`BENCH_SECTIONS takes ${SECTIONS.join(", ")}; not ${unknown.join(", ")}.`);
  return wanted.length > 0 ? wanted : SECTIONS;
}

export function readOptions(): Options {
  const concurrency = list("BENCH_CONCURRENCY").map(Number);
  if (concurrency.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error("BENCH_CONCURRENCY must be a comma-separated list of positive integers.");
  const seconds = number("BENCH_SECONDS", 1);
  return {
    seconds,
    maxSeconds: Math.max(seconds, number("BENCH_MAX_SECONDS", 3)),
    warmupSeconds: number("BENCH_WARMUP_SECONDS", 0.3),
    rounds: Math.round(number("BENCH_ROUNDS", 2)),
    concurrency: concurrency.length > 0 ? concurrency : [1, 32],
    loadgen: loadgen(),
    scenarios: list("BENCH_SCENARIOS"),
    coldRuns: Math.round(number("BENCH_COLD_RUNS", 5)),
    sections: sections(),
    playgroundRuns: Math.round(number("BENCH_PLAYGROUND_RUNS", 7)),
    outDir: outputDir(),
  };
}

/** BENCH_OUT as an absolute path: used as given when absolute, else taken from the repository root. */
export function outputDir(): string {
  const wanted = process.env.BENCH_OUT || "bench-results";
  return isAbsolute(wanted) ? wanted : resolve(ROOT, wanted);
}
