import { cpuBetween, cpuSeconds } from "./cpu-time.ts";
import type { LoadGenerator, LoadResult, LoadRun } from "./load/types.ts";
import type { Options } from "./options.ts";
import { send } from "./serve.ts";
import type { BenchRequest } from "./wire.ts";

// A run should see at least this many answers per connection, stretching short runs of slow servers.
const ANSWERS_PER_CONNECTION = 3;
const MIN_ANSWERS = 20;

/**
 * Waits until the server has finished the work a stopped run left behind (requests it accepted
 * but had not answered), so it cannot slow down the next run.
 */
export async function drain(url: string, request: BenchRequest): Promise<void> {
  const response = await send(url, request, AbortSignal.timeout(120_000));
  await response.arrayBuffer();
}

/**
 * Warms up (`first`: the server's first run of this scenario and concurrency, for the full
 * warm-up; later runs only wake it), picks a duration long enough for the server's speed, then
 * measures; with the server's `pid`, also the CPU time its workerd spent in the measured run.
 */
export async function measure(
  generator: LoadGenerator,
  base: Omit<LoadRun, "seconds">,
  options: Options,
  first: boolean,
  pid?: number,
): Promise<LoadResult> {
  const warmup = first ? options.warmupSeconds : options.rewarmSeconds;
  const warm = await generator.run({ ...base, seconds: warmup });
  await drain(base.url, base.request);
  const wanted = Math.max(MIN_ANSWERS, ANSWERS_PER_CONNECTION * base.connections);
  const seconds = Math.min(
    options.maxSeconds,
    Math.max(options.seconds, wanted / Math.max(warm.rps, 0.1)),
  );
  const cpuBefore = cpuSeconds(pid);
  const result = await generator.run({ ...base, seconds });
  const serverCpu = cpuBetween(cpuBefore, cpuSeconds(pid));
  await drain(base.url, base.request);
  return serverCpu === undefined ? result : { ...result, serverCpu };
}
