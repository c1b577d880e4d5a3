import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { cpuBetween, cpuSeconds } from "../cpu-time.ts";
import { LOAD_DIR, ROOT } from "../paths.ts";
import { PINNED, pinnedCommand } from "../workerd.ts";
import type { LoadGenerator, LoadRun } from "./types.ts";

const SCRIPT = join(LOAD_DIR, "check.lua");
const specDir = mkdtempSync(join(tmpdir(), "edgemcp-bench-"));
let specs = 0;

/** The request and its check as check.lua reads them: one "key value" per line. */
function specText({ request, check }: LoadRun): string {
  const lines = [
    ...Object.entries(request.headers).map(([name, value]) => `header ${name}: ${value}`),
    `body ${request.body}`,
    `min ${check.minBytes}`,
    `max ${Number.isFinite(check.maxBytes) ? check.maxBytes : 1e18}`,
    ...check.contains.map((needle) => `contains ${needle}`),
    ...check.absent.map((needle) => `absent ${needle}`),
    ...check.counts.map(({ needle, times }) => `count ${times} ${needle}`),
  ];
  return `${lines.join("\n")}\n`;
}

// wrk takes whole seconds, so it runs "forever" and is stopped with SIGINT, which makes it
// finish the run and report as usual.
function args(run: LoadRun, specPath: string, script = SCRIPT): string[] {
  const c = String(run.connections);
  return ["-t1", `-c${c}`, "-d3600s", "--timeout", "60s", "-s", script, run.url, "--", specPath];
}

function version(): string {
  const out = spawnSync("wrk", ["--version"], { encoding: "utf8" });
  return /wrk (\S+)/.exec(`${out.stdout}${out.stderr}`)?.[1] ?? "unknown";
}

/** wrk (one thread: workerd gets the other core) with check.lua validating every answer. */
export const wrk: LoadGenerator = {
  name: "wrk",
  version: version(),
  command: (run) =>
    `wrk ${args(run, "<spec>", relative(ROOT, SCRIPT)).join(" ")}   # stopped with SIGINT after ${run.seconds} s`,
  run(run) {
    const specPath = join(specDir, `spec-${specs++}.txt`);
    writeFileSync(specPath, specText(run));
    const [command, argv] = pinnedCommand(PINNED.load, "wrk", args(run, specPath));
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // A SIGINT that comes before wrk's event loop starts is lost (the loop clears its stop flag
    // when it starts: a short warm-up on a busy machine then ran forever), so it is repeated
    // until wrk exits; wrk reports the time it actually ran.
    let again: NodeJS.Timeout | undefined;
    const cpuBefore = cpuSeconds(child.pid);
    let loadCpu: number | undefined;
    const timer = setTimeout(() => {
      loadCpu = cpuBetween(cpuBefore, cpuSeconds(child.pid));
      child.kill("SIGINT");
      again = setInterval(() => child.kill("SIGINT"), 250);
    }, run.seconds * 1000);
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", () => {
        clearTimeout(timer);
        clearInterval(again);
        const line = /^BENCH_RESULT (.*)$/m.exec(output)?.[1];
        if (!line) return reject(new Error(`wrk printed no result:\n${output}`));
        const r = JSON.parse(line) as Record<string, number>;
        const seconds = (r.durationUs ?? 0) / 1e6;
        const answers = r.answers ?? 0;
        const bad = (r.non2xx ?? 0) + (r.invalid ?? 0);
        resolve({
          answers,
          seconds,
          rps: seconds > 0 ? (answers - bad) / seconds : 0,
          p50: (r.p50 ?? 0) / 1000,
          p90: (r.p90 ?? 0) / 1000,
          p99: (r.p99 ?? 0) / 1000,
          non2xx: r.non2xx ?? 0,
          invalid: r.invalid ?? 0,
          errors: r.errors ?? 0,
          ...(loadCpu === undefined ? {} : { loadCpu }),
        });
      });
    });
  },
};
