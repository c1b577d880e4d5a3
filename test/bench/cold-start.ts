import { workerBindings } from "./bindings.ts";
import type { Bundle } from "./build.ts";
import type { Contender } from "./contenders.ts";
import { firstAnswer } from "./serve.ts";
import { SCENARIOS } from "./scenarios.ts";
import { median } from "./stats.ts";
import { benchRequest, type BenchRequest } from "./wire.ts";
import { freePort, startWorkerd, writeConfig } from "./workerd.ts";

/** Milliseconds from spawning workerd to the first answered call, per run. */
export type ColdStart = { worker: string; samples: number[]; median: number };

/** The request of a load scenario: the first call is one the Worker answers under load too. */
function scenarioRequest(id: string): BenchRequest {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new Error(`There is no bench scenario "${id}".`);
  return benchRequest(scenario.request);
}

const ECHO = scenarioRequest("echo");
const HUB_ECHO = scenarioRequest("hub");
// The hello Workers are in no scenario: their one tool.
const GREET = benchRequest({
  method: "tools/call",
  params: { name: "greet", arguments: { name: "bench" } },
  name: "greet",
});

function firstCall(worker: string): BenchRequest {
  if (worker === "hub") return HUB_ECHO;
  return worker.startsWith("hello-") ? GREET : ECHO;
}

async function once(bundle: Bundle): Promise<number> {
  const port = await freePort();
  const config = writeConfig(bundle, port, workerBindings(1));
  const start = performance.now();
  const server = startWorkerd(config, port);
  try {
    return await firstAnswer(server, firstCall(bundle.worker), start);
  } finally {
    await server.stop();
  }
}

/** Cold-starts each Worker `runs` times, alternating their order from run to run. */
export async function coldStarts(
  workers: Contender[],
  bundleOf: (worker: string) => Bundle,
  runs: number,
): Promise<ColdStart[]> {
  const samples = new Map<string, number[]>(workers.map((w) => [w.id, []]));
  // A discarded first start loads the binary into the page cache and warms up Node's fetch.
  const first = workers[0];
  if (first) await once(bundleOf(first.id));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? workers : [...workers].reverse();
    for (const worker of order) samples.get(worker.id)?.push(await once(bundleOf(worker.id)));
  }
  return workers.map(({ id }) => {
    const values = samples.get(id) ?? [];
    return { worker: id, samples: values, median: median(values) };
  });
}
