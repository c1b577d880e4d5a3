import { join } from "node:path";
import type { LoadGenerator } from "./load/types.ts";
import type { Options } from "./options.ts";
import { benchRequest } from "./wire.ts";
import { SCENARIOS } from "./scenarios.ts";
import { buildCommand } from "./build.ts";
import { ALL_WORKERS } from "./contenders.ts";
import { ROOT } from "./paths.ts";

/** The commands behind a run, as the report prints them. */
export function commandLines(
  options: Options,
  generator: LoadGenerator,
  buildDir: string,
): string[] {
  const env = [
    `BENCH_SECONDS=${options.seconds}`,
    `BENCH_MAX_SECONDS=${options.maxSeconds}`,
    `BENCH_WARMUP_SECONDS=${options.warmupSeconds}`,
    `BENCH_ROUNDS=${options.rounds}`,
    `BENCH_CONCURRENCY=${options.concurrency.join(",")}`,
    `BENCH_LOADGEN=${generator.name}`,
    `BENCH_COLD_RUNS=${options.coldRuns}`,
    `BENCH_MEMORY_REQUESTS=${options.memoryRequests}`,
    ...(options.pin ? ["BENCH_PIN=1"] : []),
    ...(options.scenarios.length > 0 ? [`BENCH_SCENARIOS=${options.scenarios.join(",")}`] : []),
    ...(options.baseline ? [`BENCH_BASELINE=${options.baseline.root}`] : []),
    `BENCH_SECTIONS=${options.sections.join(",")}`,
    ...(options.sections.includes("playground")
      ? [`BENCH_PLAYGROUND_RUNS=${options.playgroundRuns}`]
      : []),
  ];
  const echo = SCENARIOS[0]!;
  const example = {
    url: "http://127.0.0.1:<port>/",
    request: benchRequest(echo.request),
    check: echo.load,
    connections: Math.max(...options.concurrency),
    seconds: options.seconds,
  };
  return [
    "# the whole run (npm run bench = npm run build:web && node --experimental-transform-types --no-warnings test/bench/run.ts)",
    `${env.join(" ")} npm run bench`,
    `# each Worker (${ALL_WORKERS.map((w) => w.id).join(", ")}), built twice:`,
    `npx ${buildCommand("edgemcp", `${buildDir}/edgemcp`, false).join(" ")}`,
    `npx ${buildCommand("edgemcp", `${buildDir}/edgemcp-min`, true).join(" ")}`,
    ...(options.baseline
      ? [
          "# the baseline's (BENCH_BASELINE) in its own checkout, by this checkout's wrangler:",
          `(cd ${options.baseline.root} && ${join(ROOT, "node_modules/.bin")}/${buildCommand("edgemcp", join(ROOT, buildDir, "baseline-edgemcp"), false).join(" ")})`,
        ]
      : []),
    "# served alone by workerd (one socket on 127.0.0.1, binding N_TOOLS = generated tools):",
    `node_modules/workerd/bin/workerd serve ${buildDir}/edgemcp/workerd-<port>.capnp`,
    `# load, e.g. ${echo.label} at c=${example.connections}; the body is the scenario's JSON-RPC request:`,
    generator.command(example),
  ];
}
