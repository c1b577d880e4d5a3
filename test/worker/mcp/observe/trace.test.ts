import { describe, expect, it } from "vitest";
import { parseTraceparent, traceOf } from "../../../../worker/mcp/observe/trace.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const VALID = `00-${TRACE}-${PARENT}-01`;

describe("traceparent", () => {
  it("reads a valid version-00 value", () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, parentId: PARENT, flags: "01" });
  });

  it("reads a future version, ignoring the fields it appends", () => {
    expect(parseTraceparent(`cc-${TRACE}-${PARENT}-01-what-comes-next`)).toEqual({
      traceId: TRACE,
      parentId: PARENT,
      flags: "01",
    });
  });

  it.each([
    ["uppercase hex", `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ["version ff", `ff-${TRACE}-${PARENT}-01`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${PARENT}-01`],
    ["an all-zero parent id", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["a short trace id", `00-${TRACE.slice(1)}-${PARENT}-01`],
    ["fields after a version-00 value", `${VALID}-extra`],
    ["no flags", `00-${TRACE}-${PARENT}`],
    ["a script", `00-${TRACE}-${PARENT}-01<script>`],
    ["not a string", 42],
    ["a huge value", `${VALID}${"-x".repeat(600)}`],
  ])("refuses %s", (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it("continues the caller's trace from _meta first, then the header, as a new span", () => {
    const headers = new Headers({ traceparent: `00-${"1".repeat(32)}-${"2".repeat(16)}-00` });
    const fromMeta = traceOf({ traceparent: VALID }, headers);
    expect(fromMeta).toMatchObject({ traceId: TRACE, parentId: PARENT, flags: "01" });
    expect(fromMeta.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(fromMeta.spanId).not.toBe(PARENT);
    expect(fromMeta.traceparent).toBe(`00-${TRACE}-${fromMeta.spanId}-01`);
    expect(traceOf({}, headers)).toMatchObject({
      traceId: "1".repeat(32),
      parentId: "2".repeat(16),
    });
  });

  it("starts a new trace when the value is malformed, never echoing it", () => {
    const trace = traceOf({ traceparent: `00-${TRACE.toUpperCase()}-${PARENT}-01` }, new Headers());
    expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(trace.traceId).not.toBe(TRACE);
    expect(trace).not.toHaveProperty("parentId");
    expect(trace.traceparent).toBe(`00-${trace.traceId}-${trace.spanId}-00`);
  });
});

describe("new traces", () => {
  it("get fresh lowercase-hex ids every time, across refills of the random block", () => {
    // 24 random bytes a trace: 200 traces draw the 1 KiB block several times over.
    const traces = Array.from({ length: 200 }, () => traceOf(undefined, undefined));
    for (const trace of traces) {
      expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(trace.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(trace.traceparent).toBe(`00-${trace.traceId}-${trace.spanId}-00`);
    }
    const ids = traces.flatMap((t) => [t.traceId, t.spanId]);
    expect(new Set(ids).size).toBe(ids.length);
    // Every byte value can appear: the digits are not stuck on a subset.
    const digits = new Set(ids.join(""));
    expect(digits.size).toBe(16);
  });
});
