import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The CPU time of a process, all its threads, in nanoseconds (`/proc/<pid>/task/*\/schedstat`). */
export function processCpuNs(pid: number, proc = "/proc"): number {
  let total = 0;
  for (const tid of readdirSync(join(proc, String(pid), "task"))) {
    const stat = readFileSync(join(proc, String(pid), "task", tid, "schedstat"), "utf8");
    total += Number(stat.split(" ")[0]);
  }
  return total;
}

/**
 * A process's CPU seconds so far, or undefined where it cannot be read (no /proc, as on macOS,
 * no pid, or a process that has gone): the report then leaves the CPU columns out.
 */
export function cpuSeconds(pid: number | undefined, proc = "/proc"): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const ns = processCpuNs(pid, proc);
    return Number.isFinite(ns) ? ns / 1e9 : undefined;
  } catch {
    return undefined;
  }
}

/** The CPU seconds between two readings; undefined when either is missing. */
export function cpuBetween(
  before: number | undefined,
  after: number | undefined,
): number | undefined {
  return before === undefined || after === undefined ? undefined : after - before;
}
