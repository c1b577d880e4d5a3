import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { processCpuNs, responseEnd } from "./cpu-ab.ts";

const scratch = mkdtempSync(join(tmpdir(), "bench-cpu-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("responseEnd", () => {
  const head = (lines: string) => Buffer.from(`HTTP/1.1 200 OK\r\n${lines}\r\n\r\n`);

  it("waits for the head, then for as many body bytes as Content-Length says", () => {
    expect(responseEnd(Buffer.from("HTTP/1.1 200 OK\r\nContent-Len"))).toBeUndefined();
    const partial = Buffer.concat([head("Content-Length: 5"), Buffer.from("abc")]);
    expect(responseEnd(partial)).toEqual({ status: 200, complete: false });
    const whole = Buffer.concat([partial, Buffer.from("de")]);
    expect(responseEnd(whole)).toEqual({ status: 200, complete: true });
  });

  it("ends a chunked body at its last chunk, and reads the status", () => {
    const open = Buffer.concat([head("Transfer-Encoding: chunked"), Buffer.from("3\r\nabc\r\n")]);
    expect(responseEnd(open)).toEqual({ status: 200, complete: false });
    expect(responseEnd(Buffer.concat([open, Buffer.from("0\r\n\r\n")]))).toEqual({
      status: 200,
      complete: true,
    });
    const refused = Buffer.from("HTTP/1.1 406 Not Acceptable\r\ncontent-length: 0\r\n\r\n");
    expect(responseEnd(refused)).toEqual({ status: 406, complete: true });
  });

  it("refuses a response whose end it cannot tell", () => {
    expect(() => responseEnd(head("Connection: close"))).toThrow(/neither Content-Length/);
  });
});

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
