// `npm run bench:start`: the instructions workerd executes from its spawn to the first answered
// call, for the one-tool Workers (hello edgemcp, hello mcp-lite, the bare Worker and, with
// BENCH_BASELINE, the baseline's hello edgemcp), counted by valgrind's callgrind. The cold-start
// section's wall clock and CPU time swing with whatever else this machine runs (its CPU column
// cannot resolve a change of a few percent in 41 starts); an instruction count is the same from
// one run to the next within 0.1%, so a change to start-up work reads in one run of each Worker.
// It counts work, not time: cache misses and page faults are not in it. Needs valgrind
// (apt-get install valgrind); each start takes about ten seconds under it.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { workerBindings } from "./bindings.ts";
import { build, type Bundle } from "./build.ts";
import { firstCall } from "./cold-start.ts";
import { BARE, baselines, HELLO_WORKERS, type Contender } from "./contenders.ts";
import { table } from "./format.ts";
import { baselineCheckout, outputDir } from "./options.ts";
import { send } from "./serve.ts";
import { freePort, WORKERD, writeConfig } from "./workerd.ts";

const HELLO = ["hello-mcp-lite", "hello-edgemcp"];

/** The instructions workerd ran from its spawn until it answered the worker's first call. */
async function instructions(bundle: Bundle, worker: Contender): Promise<number> {
  const port = await freePort();
  const config = writeConfig(bundle, port, workerBindings(1));
  const counts = join(bundle.dir, `callgrind-${port}.out`);
  const args = ["--tool=callgrind", `--callgrind-out-file=${counts}`, WORKERD, "serve", config];
  const child = spawn("valgrind", args, { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const request = firstCall(worker);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`workerd exited under valgrind:\n${log}`);
      const response = await send(`http://127.0.0.1:${port}/`, request).catch(() => undefined);
      if (response) {
        const body = await response.text();
        if (!response.ok) throw new Error(`${worker.id} answered ${response.status}: ${body}`);
        break;
      }
      await sleep(20);
    }
  } finally {
    // callgrind writes its counts when workerd exits.
    child.kill("SIGTERM");
    await exited;
    rmSync(config, { force: true });
  }
  const summary = /^summary:\s*(\d+)/m.exec(readFileSync(counts, "utf8"))?.[1];
  rmSync(counts, { force: true });
  if (summary === undefined) throw new Error(`callgrind wrote no summary:\n${log}`);
  return Number(summary);
}

if (spawnSync("valgrind", ["--version"]).error) {
  console.error(
    "valgrind is not installed (apt-get install valgrind): it counts the instructions.",
  );
  process.exit(1);
}
const checkout = baselineCheckout(process.env.BENCH_BASELINE);
const workers: Contender[] = [
  BARE,
  ...HELLO_WORKERS.filter((w) => HELLO.includes(w.id)),
  ...(checkout ? baselines(checkout, ["hello-edgemcp"]) : []),
];
const out = join(outputDir(), "build-instructions");
const rows: string[][] = [];
let bare = 0;
for (const worker of workers) {
  const bundle = await build(
    worker.baseline?.of ?? worker.id,
    out,
    false,
    worker.baseline?.checkout.root,
    worker.id,
  );
  const count = await instructions(bundle, worker);
  if (worker === BARE) bare = count;
  rows.push([worker.label, (count / 1e6).toFixed(1), (count / bare).toFixed(3)]);
  console.log(`${worker.label}: ${(count / 1e6).toFixed(1)} M`);
}
console.log();
console.log(table(["Worker", "M instructions to the first answer", "÷ bare"], rows));
