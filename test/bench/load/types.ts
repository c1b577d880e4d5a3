import type { LoadCheck } from "../scenarios.ts";
import type { BenchRequest } from "../wire.ts";

/** One load run: the same request on `connections` keep-alive connections for `seconds`. */
export type LoadRun = {
  url: string;
  request: BenchRequest;
  check: LoadCheck;
  connections: number;
  seconds: number;
};

/** What a run measured; latencies in milliseconds. */
export type LoadResult = {
  /** Answers received (valid or not). */
  answers: number;
  seconds: number;
  /** Valid answers per second. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** Answers with a non-2xx status. */
  non2xx: number;
  /** 2xx answers whose body failed the scenario's check. */
  invalid: number;
  /** Connection errors and timeouts. */
  errors: number;
  /**
   * CPU seconds spent during the run by the load generator (autocannon: this whole process) and
   * by the server's workerd process, all threads; absent where they cannot be read (no /proc).
   */
  loadCpu?: number;
  serverCpu?: number;
};

/** A load generator: wrk or autocannon behind one signature. */
export type LoadGenerator = {
  name: string;
  version: string;
  /** The command line of a run, for the report. */
  command(run: LoadRun): string;
  run(run: LoadRun): Promise<LoadResult>;
};
