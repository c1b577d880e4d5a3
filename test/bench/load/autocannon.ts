import autocannon from "autocannon";
import { packageVersion } from "../machine.ts";
import { percentile } from "../stats.ts";
import { answerChecker } from "./check.ts";
import type { LoadGenerator } from "./types.ts";

const is2xx = (status: number) => status >= 200 && status <= 299;

/**
 * autocannon in this process. It emits `response` (status, latency with sub-millisecond
 * precision, unlike its own histogram) and then calls `verifyBody` for the same answer in the
 * same tick, so the body check knows the status it belongs to and judges only 2xx answers.
 */
export const autocannonGenerator: LoadGenerator = {
  name: "autocannon",
  version: packageVersion("autocannon"),
  command: (run) =>
    `autocannon({ url: "${run.url}", method: "POST", connections: ${run.connections}, duration: ${run.seconds}, timeout: 60, verifyBody })`,
  async run(run) {
    const latencies: number[] = [];
    let status = 0;
    let valid = 0;
    let invalid = 0;
    let non2xx = 0;
    const passes = answerChecker(run.check);
    const cpuBefore = process.cpuUsage();
    const verifyBody = (body: unknown): boolean => {
      if (!is2xx(status)) return true;
      const ok = passes(String(body ?? ""));
      if (ok) valid++;
      else invalid++;
      return ok;
    };
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: run.url,
          method: "POST",
          headers: run.request.headers,
          body: run.request.body,
          connections: run.connections,
          duration: run.seconds,
          timeout: 60,
          verifyBody,
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      );
      instance.on("response", (_client, statusCode, _bytes, responseTime) => {
        status = statusCode;
        if (!is2xx(statusCode)) non2xx++;
        latencies.push(responseTime);
      });
    });
    const cpu = process.cpuUsage(cpuBefore);
    const seconds = result.duration;
    latencies.sort((a, b) => a - b);
    return {
      answers: latencies.length,
      seconds,
      rps: seconds > 0 ? valid / seconds : 0,
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      non2xx,
      invalid,
      errors: result.errors + result.timeouts,
      loadCpu: (cpu.user + cpu.system) / 1e6,
    };
  },
};
