import { workerBindings } from "./bindings.ts";
import type { Bundle } from "./build.ts";
import { cpuSeconds } from "./cpu-time.ts";
import { folderOf, type Contender } from "./contenders.ts";
import { firstAnswer } from "./serve.ts";
import { SCENARIOS } from "./scenarios.ts";
import { median } from "./stats.ts";
import { benchRequest, legacyRequest, type BenchRequest } from "./wire.ts";
import { freePort, startWorkerd, writeConfig } from "./workerd.ts";

/**
 * Milliseconds from spawning workerd to the first answered call, per run; for a baseline that
 * did not answer, no samples and why. `cpu`: the CPU milliseconds workerd's threads used until
 * then, run by run (Linux: /proc), which a busy machine sways far less than the wall clock.
 */
export type ColdStart = {
  worker: string;
  samples: number[];
  median: number;
  cpu?: number[];
  problem?: string;
};

const cpuMs = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

/** The request of a load scenario: the first call is one the Worker answers under load too. */
function scenarioRequest(id: string): BenchRequest {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new Error(`There is no bench scenario "${id}".`);
  return benchRequest(scenario.request);
}

const ECHO = scenarioRequest("echo");
const HUB_ECHO = scenarioRequest("hub");
// The hello Workers are in no scenario: their one tool.
const GREET_SPEC = {
  method: "tools/call",
  params: { name: "greet", arguments: { name: "bench" } },
  name: "greet",
};
const GREET = benchRequest(GREET_SPEC);
// A server of the 2025 era only gets the 2025 call (stateless: no initialize before it).
const LEGACY_ECHO = legacyRequest(SCENARIOS.find((s) => s.id === "echo")!.request);
const LEGACY_GREET = legacyRequest(GREET_SPEC);

/** The first call a cold start times: the Worker's own tool, in the era it serves. */
export function firstCall(worker: Contender): BenchRequest {
  if (worker.hub) return HUB_ECHO;
  const hello = folderOf(worker).startsWith("hello-");
  if (!worker.eras.includes("2026") && worker.eras.includes("2025"))
    return hello ? LEGACY_GREET : LEGACY_ECHO;
  return hello ? GREET : ECHO;
}

async function once(
  bundle: Bundle,
  worker: Contender,
): Promise<{ ms: number; cpu: number | undefined }> {
  const port = await freePort();
  const config = writeConfig(bundle, port, workerBindings(1));
  const start = performance.now();
  const server = startWorkerd(config, port);
  try {
    const ms = await firstAnswer(server, firstCall(worker), start);
    return { ms, cpu: cpuMs(cpuSeconds(server.process.pid)) };
  } finally {
    await server.stop();
  }
}

/**
 * Cold-starts each Worker `runs` times, alternating their order from run to run. A baseline that
 * fails to answer is left out of later runs and reported; any other failure stops the bench.
 */
export async function coldStarts(
  workers: Contender[],
  bundleOf: (worker: string) => Bundle,
  runs: number,
): Promise<ColdStart[]> {
  const samples = new Map<string, number[]>(workers.map((w) => [w.id, []]));
  const cpu = new Map<string, (number | undefined)[]>(workers.map((w) => [w.id, []]));
  const problems = new Map<string, string>();
  // A discarded first start loads the binary into the page cache and warms up Node's fetch.
  const first = workers[0];
  if (first) await once(bundleOf(first.id), first);
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? workers : [...workers].reverse();
    for (const worker of order) {
      if (problems.has(worker.id)) continue;
      try {
        const run = await once(bundleOf(worker.id), worker);
        samples.get(worker.id)?.push(run.ms);
        cpu.get(worker.id)?.push(run.cpu);
      } catch (error) {
        if (worker.role !== "baseline") throw error;
        problems.set(worker.id, error instanceof Error ? error.message : String(error));
      }
    }
  }
  return workers.map(({ id }) => {
    const values = samples.get(id) ?? [];
    const problem = problems.get(id);
    const used = (cpu.get(id) ?? []).filter((v) => v !== undefined);
    const measured = used.length > 0 && used.length === values.length;
    return {
      worker: id,
      samples: values,
      median: median(values),
      ...(measured ? { cpu: used } : {}),
      ...(problem ? { problem } : {}),
    };
  });
}
