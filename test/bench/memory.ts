import { readFileSync } from "node:fs";
import { workerBindings } from "./bindings.ts";
import type { Bundle } from "./build.ts";
import { SCENARIOS } from "./scenarios.ts";
import { send, serve } from "./serve.ts";
import { benchRequest, legacyRequest, type BenchRequest } from "./wire.ts";

/** Resident memory of the workerd process serving edgemcp under a long mixed load, in KiB. */
export type Memory = {
  requests: number;
  start: number;
  afterWarmup: number;
  end: number;
  /** Answers that were not 2xx (none expected). */
  failed: number;
};

const CONNECTIONS = 8;
const WARMUP_SHARE = 0.1;

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
}

/**
 * The mix: mostly echo (2026 and 2025 wires), lists, reads and progress streams, and one 1 MiB
 * result in a hundred.
 */
function mix(): BenchRequest[] {
  const of = (id: string) => SCENARIOS.find((s) => s.id === id)!.request;
  const common = [
    benchRequest(of("echo")),
    legacyRequest(of("echo")),
    benchRequest(of("list-10")),
    benchRequest(of("read")),
    benchRequest(of("progress")),
  ];
  const requests = Array.from({ length: 99 }, (_, i) => common[i % common.length]!);
  requests.push(benchRequest(of("big")));
  return requests;
}

/** Sends `total` mixed requests on a few connections, then reads the process's VmRSS. */
export async function measureMemory(bundle: Bundle, total: number): Promise<Memory> {
  const requests = mix();
  const server = await serve(bundle, workerBindings(10), requests[0]!);
  const pid = server.process.pid!;
  let sent = 0;
  let failed = 0;
  const drive = async (until: number) => {
    const lane = async () => {
      while (sent < until) {
        const request = requests[sent++ % requests.length]!;
        const response = await send(server.url, request);
        await response.arrayBuffer();
        if (!response.ok) failed++;
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  };
  try {
    const start = rssKiB(pid);
    await drive(Math.round(total * WARMUP_SHARE));
    const afterWarmup = rssKiB(pid);
    await drive(total);
    return { requests: sent, start, afterWarmup, end: rssKiB(pid), failed };
  } finally {
    await server.stop();
  }
}
