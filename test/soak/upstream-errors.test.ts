import { describe, expect, it } from "vitest";
import type { UpstreamError } from "../cluster/front.ts";
import { relativeToRestart, upstreamErrorReport } from "./upstream-errors.ts";

const T = Date.UTC(2026, 0, 1, 12, 0, 0);
const windows = [
  { from: T + 60_000, to: T + 63_000 },
  { from: T + 120_000, to: T + 124_000 },
];
const error = (at: number, outcome: UpstreamError["outcome"], extra: Partial<UpstreamError> = {}) =>
  ({
    at,
    worker: 2,
    port: 40_001,
    method: "POST",
    path: "/mcp/notes",
    code: "ECONNRESET",
    reused: true,
    idleMs: 15_000,
    outcome,
    ...extra,
  }) satisfies UpstreamError;

describe("the cluster soak's account of the front's upstream errors", () => {
  it("places a moment relative to the nearest restart: before it began, into it, or after it served again", () => {
    expect(relativeToRestart(T, [])).toBe("no restart");
    expect(relativeToRestart(T + 58_000, windows)).toBe("2.0 s before restart 1 began");
    expect(relativeToRestart(T + 120_500, windows)).toBe("0.5 s into restart 2");
    expect(relativeToRestart(T + 80_000, windows)).toBe("17.0 s after restart 1 served again");
    expect(relativeToRestart(T + 100_000, windows)).toBe("20.0 s before restart 2 began");
  });

  it("counts the errors since the soak began by outcome and code, and lists each one the client saw", () => {
    const report = upstreamErrorReport(
      [
        error(T - 1_000, "502"),
        error(T + 61_000, "sent again"),
        error(T + 61_000, "502", { code: "ECONNREFUSED", reused: false, idleMs: undefined }),
        error(T + 90_000, "502"),
        error(T + 125_000, "cut", { idleMs: undefined }),
      ],
      T,
      windows,
    );
    expect(report.split("\n")).toEqual([
      "Front's upstream errors: 4",
      "  1 × sent again, ECONNRESET on a reused connection",
      "  1 × 502, ECONNREFUSED",
      "  1 × 502, ECONNRESET on a reused connection",
      "  1 × cut, ECONNRESET on a reused connection",
      "  Those the client saw (502 or a cut answer):",
      "    12:01:01.000 502 ECONNREFUSED, worker 2 (port 40001), POST /mcp/notes, a new connection; 1.0 s into restart 1",
      "    12:01:30.000 502 ECONNRESET, worker 2 (port 40001), POST /mcp/notes, a reused connection idle 15.0 s; 27.0 s after restart 1 served again",
      "    12:02:05.000 cut ECONNRESET, worker 2 (port 40001), POST /mcp/notes, a reused connection; 1.0 s after restart 2 served again",
    ]);
  });
});
