// `npm run bench`: builds the bench Workers, measures sizes, cold starts and load, and writes
// a Markdown report to bench-results/. Settings: BENCH_* variables (see README.md here).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, relative } from "node:path";
import { buildAll } from "./bundles.ts";
import { coldStarts } from "./cold-start.ts";
import { ALL_WORKERS, baselines, SAME_BYTES } from "./contenders.ts";
import { commandLines } from "./commands.ts";
import { sampleLine } from "./format.ts";
import { loadGenerator } from "./load/index.ts";
import { describeMachine } from "./machine.ts";
import { readOptions } from "./options.ts";
import { ROOT } from "./paths.ts";
import { renderReport } from "./report.ts";
import type { Sample } from "./results.ts";
import { runScenario, type Problem } from "./scenario-run.ts";
import { SCENARIOS, withBaselines } from "./scenarios.ts";
import { assetsSize, bundleSize } from "./sizes.ts";
import { targets } from "./targets.ts";
import { haveSchema } from "./wire-schema.ts";
import { pinProcesses } from "./workerd.ts";
import { measureMemory, type Memory } from "./memory.ts";
import { measurePlayground, playgroundSection } from "./playground.ts";

const log = (line: string) => process.stderr.write(`${line}\n`);

const startedAt = new Date();
const loadAtStart = loadavg()[0] ?? 0;
// A setting the bench refuses (BENCH_BASELINE not a checkout, say) is one line, not a stack.
const options = (() => {
  try {
    return readOptions();
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
})();
pinProcesses(options.pin);
const outDir = options.outDir;
const stamp = startedAt.toISOString().replace(/[:.]/g, "-");

async function playground(): Promise<string | undefined> {
  if (!options.sections.includes("playground")) return undefined;
  log(`Playground: first-load size and ${options.playgroundRuns} page loads in Chromium ...`);
  return playgroundSection(await measurePlayground(options.playgroundRuns));
}

// The playground section alone (BENCH_SECTIONS=playground): no server builds, no load.
if (!options.sections.includes("load")) {
  const report = `# edgemcp benchmark (playground), ${startedAt.toISOString()}\n\n${(await playground()) ?? ""}\n`;
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${stamp}-playground.md`);
  writeFileSync(file, report);
  process.stdout.write(`${report}\nWritten to ${relative(ROOT, file)}\n`);
  process.exit(0);
}
const generator = await loadGenerator(options.loadgen);
// BENCH_BASELINE: the edgemcp Workers of another checkout (those it has), beside this one's.
const baselineWorkers = (() => {
  const checkout = options.baseline;
  if (!checkout) return [];
  const dir = join(checkout.root, "test/bench/workers");
  const folders = readdirSync(dir).filter((name) => existsSync(join(dir, name, "wrangler.toml")));
  return baselines(checkout, folders);
})();
// Each baseline right after its current Worker, in the size and cold-start tables as in the rows.
const workers = ALL_WORKERS.flatMap((w) => [
  w,
  ...baselineWorkers.filter((b) => b.baseline?.of === w.id),
]);
const scenarios = SCENARIOS.filter(
  (s) => options.scenarios.length === 0 || options.scenarios.includes(s.id),
).map((s) => withBaselines(s, baselineWorkers));
const buildDir = join(outDir, "build");

if (loadAtStart > availableParallelism() / 2)
  log(
    `Load average is ${loadAtStart.toFixed(2)}: other work on this machine will skew the figures.`,
  );
log(
  `Building ${workers.length} Workers (plain and minified) into ${relative(ROOT, buildDir)}/ ...`,
);
const bundles = await buildAll(workers, buildDir);
const sizes = workers.map((w) => bundleSize(bundles.of(w.id), bundles.of(w.id, true)));
const assets = assetsSize(join(ROOT, "web/dist"));

log(`Cold starts (${options.coldRuns} per Worker) ...`);
// The same-bytes anchor serves an answer taken under load only: it has no cold start of its own.
const cold = await coldStarts(
  workers.filter((w) => w !== SAME_BYTES),
  (worker) => bundles.of(worker),
  options.coldRuns,
);
for (const { worker, problem } of cold)
  if (problem) log(`  ${worker} did not answer (reported, not timed): ${problem}`);

if (!haveSchema())
  log("Official schema not found beside the project: answers are checked by shape only.");
const samples: Sample[] = [];
const problems: Problem[] = [];
for (const scenario of scenarios) {
  log(`${scenario.label} (${scenario.tools} generated tools) ...`);
  await runScenario(scenario, {
    options,
    generator,
    bundleOf: (worker) => bundles.of(worker),
    onSample(sample) {
      samples.push(sample);
      log(sampleLine(sample));
    },
    onProblem(problem) {
      problems.push(problem);
      log(`  ${problem.server} failed its check (reported, not counted): ${problem.problem}`);
    },
  });
}

let memory: Memory | undefined;
if (options.memoryRequests > 0) {
  log(`Memory: ${options.memoryRequests.toLocaleString("en-US")} mixed requests to edgemcp ...`);
  memory = await measureMemory(bundles.of("edgemcp"), options.memoryRequests);
  log(
    `  VmRSS ${memory.start} KiB at start, then ${memory.samples.map((m) => m.kib).join(", ")} after each tenth`,
  );
}

const playgroundReport = await playground();
const report = renderReport({
  startedAt,
  elapsedSeconds: (Date.now() - startedAt.getTime()) / 1000,
  machine: describeMachine(loadAtStart),
  options,
  generator,
  schemaChecked: haveSchema(),
  workers,
  scenarios,
  samples,
  problems,
  memory,
  sizes,
  assets,
  coldStarts: cold,
  targets: targets({
    samples,
    scenarios,
    concurrency: options.concurrency,
    sizes,
    coldStarts: cold,
  }),
  commands: commandLines(options, generator, relative(ROOT, buildDir)),
  playground: playgroundReport,
});
mkdirSync(outDir, { recursive: true });
const file = join(outDir, `${stamp}.md`);
writeFileSync(file, report);
writeFileSync(
  join(outDir, `${stamp}.json`),
  JSON.stringify({ options, sizes, assets, cold, memory, samples, problems }, null, 2),
);
process.stdout.write(`${report}\nWritten to ${relative(ROOT, file)}\n`);
