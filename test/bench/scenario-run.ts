import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { workerBindings } from "./bindings.ts";
import type { Bundle } from "./build.ts";
import { EDGEMCP, isMcp, roundOrder, SAME_BYTES, type Contender } from "./contenders.ts";
import { probeFor, requestFor } from "./handshake.ts";
import type { LoadGenerator } from "./load/types.ts";
import { measure } from "./measure.ts";
import type { Options } from "./options.ts";
import type { Sample } from "./results.ts";
import { BASELINE_CHECK, roundsOf, type Scenario } from "./scenarios.ts";
import { serve } from "./serve.ts";
import { answerBytes, answerProblem, sameBytesProblem } from "./validate.ts";
import type { BenchRequest } from "./wire.ts";
import type { Workerd } from "./workerd.ts";

/**
 * A check that failed before load: fatal for edgemcp and the anchors, reported for a peer or a
 * baseline (the wire may have changed since).
 */
export type Problem = { scenario: string; server: string; problem: string };

type Context = {
  options: Options;
  generator: LoadGenerator;
  bundleOf(worker: string): Bundle;
  onSample(sample: Sample): void;
  onProblem(problem: Problem): void;
};

type Served = { contender: Contender; server: Workerd; request: BenchRequest };

/** edgemcp's answer to the scenario, written beside the same-bytes anchor for it to serve. */
async function sameBytesBindings(
  scenario: Scenario,
  subject: Served,
  bundle: Bundle,
  tools: number,
) {
  const answer = await answerBytes(subject.server.url, subject.request);
  const file = `answer-${scenario.id}.bin`;
  writeFileSync(join(bundle.dir, file), answer.bytes);
  return { ...workerBindings(tools), ANSWER: { file }, HEADERS: JSON.stringify(answer.headers) };
}

/**
 * Serves the scenario's Workers (each in its own workerd), checks one answer of each in depth
 * (and that the same-bytes anchor answers edgemcp's bytes), then measures every concurrency in
 * rounds that alternate the order of the servers (`roundOrder`: the subject between its anchors).
 */
export async function runScenario(scenario: Scenario, context: Context): Promise<void> {
  const { options, generator } = context;
  const served: Served[] = [];
  const fail = (contender: Contender, problem: string) => {
    if (contender.role === "peer" || contender.role === "baseline") {
      context.onProblem({ scenario: scenario.id, server: contender.id, problem });
      return;
    }
    throw new Error(`${contender.label}, ${scenario.label}: ${problem}`);
  };
  try {
    const probe = probeFor(scenario.era, scenario.request);
    // The same-bytes anchor starts last: it serves what edgemcp answered.
    const order = [...scenario.contenders].sort(
      (a, b) => Number(a === SAME_BYTES) - Number(b === SAME_BYTES),
    );
    for (const contender of order) {
      const bundle = context.bundleOf(contender.id);
      let server: Workerd;
      let request: BenchRequest;
      try {
        if (contender === SAME_BYTES) {
          const subject = served.find((s) => s.contender === EDGEMCP);
          if (!subject) throw new Error("edgemcp is not serving this scenario");
          const bindings = await sameBytesBindings(scenario, subject, bundle, scenario.tools);
          server = await serve(bundle, bindings, subject.request);
          request = subject.request;
        } else {
          server = await serve(bundle, workerBindings(scenario.tools), probe);
          request = await requestFor(scenario.era, scenario.request, server.url, isMcp(contender));
        }
      } catch (error) {
        fail(contender, error instanceof Error ? error.message : String(error));
        continue;
      }
      served.push({ contender, server, request });
    }
    for (const { contender, server, request } of served) {
      const problem =
        contender === SAME_BYTES
          ? await sameBytesProblem(
              server.url,
              served.find((s) => s.contender === EDGEMCP)!.server.url,
              request,
            )
          : await answerProblem(server.url, request, contender, scenario);
      if (problem) fail(contender, problem);
    }
    // Back to the order of the scenario (anchors, peers, edgemcp).
    served.sort(
      (a, b) => scenario.contenders.indexOf(a.contender) - scenario.contenders.indexOf(b.contender),
    );
    const rounds = roundsOf(scenario, options.rounds);
    for (const concurrency of options.concurrency) {
      for (let round = 1; round <= rounds; round++) {
        for (const { contender, server, request } of roundOrder(served, round)) {
          const result = await measure(
            generator,
            {
              url: server.url,
              request,
              check: isMcp(contender) || contender === SAME_BYTES ? scenario.load : BASELINE_CHECK,
              connections: concurrency,
            },
            options,
            round === 1,
            server.process.pid,
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
    await Promise.all(served.map(({ server }) => server.stop()));
  }
}
