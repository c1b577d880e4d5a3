import { execFileSync } from "node:child_process";
import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { Checkout } from "./contenders.ts";
import { ROOT } from "./paths.ts";

/** Settings of one `npm run bench`, from BENCH_* environment variables. */
export type Options = {
  /** Shortest measured time per run, in seconds. */
  seconds: number;
  /** Longest a run may be stretched to collect enough answers from a slow server. */
  maxSeconds: number;
  /** Unmeasured load before a server's first run of a scenario and concurrency, in seconds. */
  warmupSeconds: number;
  /** Unmeasured load before its later runs (it is warm; this wakes it after the others ran). */
  rewarmSeconds: number;
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
  /** Mixed requests sent to edgemcp for the memory figure (0: not measured). */
  memoryRequests: number;
  /** Pin workerd and the load generator to separate cores with taskset. */
  pin: boolean;
  /** BENCH_QUICK=1: short defaults for a look, not for figures to steer by. */
  quick: boolean;
  /** Where reports go: BENCH_OUT as given when absolute, else under the repository root. */
  outDir: string;
  /** BENCH_BASELINE: another checkout whose edgemcp and hub Workers run beside this one's. */
  baseline: Checkout | undefined;
};

const SECTIONS = ["load", "playground"];

/** A setting that must be a positive number (`fallback` when unset or empty). */
export function positiveNumber(name: string, fallback: number): number {
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

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** BENCH_PIN=1 pins (taskset needed, 2 cores or more); off by default. */
function pin(): boolean {
  const wanted = process.env.BENCH_PIN ?? "";
  if (wanted === "" || wanted === "0") return false;
  if (wanted !== "1") throw new Error("BENCH_PIN must be 0 or 1.");
  if (!hasTaskset()) throw new Error("BENCH_PIN=1 needs taskset (util-linux).");
  return true;
}

/** A count that may be 0. */
function whole(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number (0 or more).`);
  return value;
}

// The defaults and the quick ones (BENCH_QUICK=1). Many short rounds rather than a few long
// ones: this machine has spells, from a second to a minute long, in which everything runs up to
// four times slower, and a ratio is only as good as the pair of runs it divides. Twenty-one
// rounds of 0.3 s put the two sides of a ratio under a second apart and take the median of many
// pairs: three runs in a row agreed within 7% on echo and tools/list at c=1, where three rounds
// of 2 s (and nine of 1 s) moved the same ratios 20–50% between two runs.
const DEFAULTS = {
  seconds: 0.3,
  maxSeconds: 3,
  warmup: 0.5,
  rewarm: 0.2,
  rounds: 21,
  // Two runs of 21 cold starts each, under a load average of 16-19, put hello mcp-lite's median
  // wall-clock ratio to bare at 1.11 and 1.29 (their CPU ratios 1.31 and 1.38): twice the runs
  // for the medians the targets take, about a minute for the 13 Workers on a quiet machine.
  cold: 41,
  // Twice WORKING_SIZE_REQUESTS (test/bench/memory.ts): the warm-up half reaches the working size.
  memory: 150_000,
};
const QUICK = {
  seconds: 0.5,
  maxSeconds: 1,
  warmup: 0.2,
  rewarm: 0.2,
  rounds: 1,
  cold: 9,
  memory: 5_000,
};

export function readOptions(): Options {
  const quick = process.env.BENCH_QUICK === "1";
  const d = quick ? QUICK : DEFAULTS;
  const concurrency = list("BENCH_CONCURRENCY").map(Number);
  if (concurrency.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error("BENCH_CONCURRENCY must be a comma-separated list of positive integers.");
  const seconds = positiveNumber("BENCH_SECONDS", d.seconds);
  const warmupSeconds = positiveNumber("BENCH_WARMUP_SECONDS", d.warmup);
  return {
    seconds,
    maxSeconds: Math.max(seconds, positiveNumber("BENCH_MAX_SECONDS", d.maxSeconds)),
    warmupSeconds,
    rewarmSeconds: Math.min(warmupSeconds, d.rewarm),
    rounds: Math.round(positiveNumber("BENCH_ROUNDS", d.rounds)),
    concurrency: concurrency.length > 0 ? concurrency : [1, 32],
    loadgen: loadgen(),
    scenarios: list("BENCH_SCENARIOS"),
    coldRuns: Math.round(positiveNumber("BENCH_COLD_RUNS", d.cold)),
    sections: sections(),
    playgroundRuns: Math.round(positiveNumber("BENCH_PLAYGROUND_RUNS", quick ? 3 : 7)),
    memoryRequests: whole("BENCH_MEMORY_REQUESTS", d.memory),
    pin: pin(),
    quick,
    outDir: outputDir(),
    baseline: baselineCheckout(process.env.BENCH_BASELINE),
  };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/**
 * BENCH_BASELINE: the root of another checkout of this repository (a `git worktree add`, say),
 * with its commit; undefined when unset. Refuses a path that is missing, not the root of a git
 * checkout, without the edgemcp bench Worker, or without node_modules (its Workers import zod).
 */
export function baselineCheckout(wanted: string | undefined): Checkout | undefined {
  if (wanted === undefined || wanted === "") return undefined;
  const root = resolve(wanted);
  const refuse = (why: string) => new Error(`BENCH_BASELINE=${wanted}: ${why}.`);
  if (!existsSync(root)) throw refuse("no such folder");
  if (!statSync(root).isDirectory()) throw refuse("not a folder");
  let top: string;
  try {
    top = git(root, "rev-parse", "--show-toplevel");
  } catch {
    throw refuse(
      "not a git checkout (make one with `git worktree add <path> <commit>` in this repository)",
    );
  }
  if (realpathSync(top) !== realpathSync(root))
    throw refuse(`not the root of its checkout (that is ${top})`);
  if (!existsSync(join(root, "test/bench/workers/edgemcp/wrangler.toml")))
    throw refuse("no test/bench/workers/edgemcp/wrangler.toml: not a checkout of edgemcp's bench");
  if (!existsSync(join(root, "node_modules")))
    throw refuse(
      `no node_modules (link this checkout's: ln -s ${join(ROOT, "node_modules")} ${join(root, "node_modules")})`,
    );
  return {
    root,
    commit: git(root, "rev-parse", "--short", "HEAD"),
    changed: git(root, "status", "--porcelain", "--untracked-files=no") !== "",
  };
}

/** BENCH_OUT as an absolute path: used as given when absolute, else taken from the repository root. */
export function outputDir(): string {
  const wanted = process.env.BENCH_OUT || "bench-results";
  return isAbsolute(wanted) ? wanted : resolve(ROOT, wanted);
}
