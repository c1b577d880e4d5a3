import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cpuBetween, cpuSeconds, processCpuNs } from "./cpu-time.ts";

const scratch = mkdtempSync(join(tmpdir(), "bench-cpu-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("processCpuNs", () => {
  it("adds the run time of every thread of the process", () => {
    for (const [tid, ns] of [
      ["41", 1_500_000],
      ["42", 250_000],
    ] as const) {
      const dir = join(scratch, "7", "task", tid);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "schedstat"), `${ns} 12345 67\n`);
    }
    expect(processCpuNs(7, scratch)).toBe(1_750_000);
  });

  it("reads this process's own counter, which only grows", () => {
    const before = processCpuNs(process.pid);
    let spin = 0;
    for (let i = 0; i < 2_000_000; i++) spin += i % 7;
    expect(spin).toBeGreaterThan(0);
    expect(processCpuNs(process.pid)).toBeGreaterThan(before);
  });
});

describe("cpuSeconds", () => {
  it("is the process's CPU time in seconds", () => {
    const dir = join(scratch, "8", "task", "80");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "schedstat"), "2500000000 1 1\n");
    expect(cpuSeconds(8, scratch)).toBe(2.5);
  });

  it("is undefined without a pid or for a process /proc does not have", () => {
    expect(cpuSeconds(undefined, scratch)).toBeUndefined();
    expect(cpuSeconds(99, scratch)).toBeUndefined();
    expect(cpuSeconds(8, join(scratch, "no-proc"))).toBeUndefined();
  });

  it("gives a difference only when both readings were taken", () => {
    expect(cpuBetween(1.25, 2)).toBe(0.75);
    expect(cpuBetween(undefined, 2)).toBeUndefined();
    expect(cpuBetween(1, undefined)).toBeUndefined();
  });
});
