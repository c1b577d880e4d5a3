import { workerBindings } from "./bindings.ts";
import type { Bundle } from "./build.ts";
import type { LoadGenerator } from "./load/types.ts";
import { measure } from "./measure.ts";
import type { Options } from "./options.ts";
import type { Sample } from "./results.ts";
import { BASELINE_CHECK, type Scenario } from "./scenarios.ts";
import { serve } from "./serve.ts";
import { validateAnswer } from "./validate.ts";
import { benchRequest } from "./wire.ts";
import type { Workerd } from "./workerd.ts";

type Context = {
  options: Options;
  generator: LoadGenerator;
  bundleOf(worker: string): Bundle;
  onSample(sample: Sample): void;
};

/**
 * Serves the scenario's Workers (each in its own workerd), checks one answer of each in
 * depth, then measures every concurrency in rounds that alternate the order of the servers.
 */
export async function runScenario(scenario: Scenario, context: Context): Promise<void> {
  const { options, generator } = context;
  const request = benchRequest(scenario.request);
  const { contenders } = scenario;
  const servers = new Map<string, Workerd>();
  try {
    for (const contender of contenders) {
      const bindings = workerBindings(scenario.tools);
      servers.set(contender.id, await serve(context.bundleOf(contender.id), bindings, request));
    }
    for (const contender of contenders)
      await validateAnswer(servers.get(contender.id)!.url, contender, scenario);
    for (const concurrency of options.concurrency) {
      for (let round = 1; round <= options.rounds; round++) {
        const order = round % 2 === 1 ? contenders : [...contenders].reverse();
        for (const contender of order) {
          const result = await measure(
            generator,
            {
              url: servers.get(contender.id)!.url,
              request,
              check: contender.mcp ? scenario.load : BASELINE_CHECK,
              connections: concurrency,
            },
            options,
          );
          context.onSample({
            scenario: scenario.id,
            concurrency,
            server: contender.id,
            round,
            result,
          });
        }
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  }
}
