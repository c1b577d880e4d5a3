import { describe, expect, inject, it } from "vitest";
import { failuresOf, runSuite, type SuiteRun } from "./conformance-run.ts";

/**
 * Scenarios that fail today because a feature is missing, with the reason. Each must keep
 * failing: when one starts passing its test fails, so the entry has to be removed here.
 */
const PENDING: Record<"next" | "legacy", Record<string, string>> = {
  next: {}, // every 2026-07-28 scenario passes
  legacy: {}, // every 2025 scenario passes
};

// The dns-rebinding scenarios need a loopback URL, which the global setup provides.
const url = `${inject("workerUrl")}/mcp/everything`;

// Some raw probes of the 0.2.0 suite allow only ~500 ms for an answer: wake the Worker first.
await (await fetch(url, { method: "POST" })).text();

// The suites run while the file is collected, so that every scenario they ran becomes a test.
const runs: Record<"next" | "legacy", SuiteRun> = {
  next: await runSuite("conformance-next", url, ["--spec-version", "2026-07-28", "--suite", "all"]),
  legacy: await runSuite("conformance-legacy", url, []),
};

describe.each([
  ["@modelcontextprotocol/conformance 0.2.0-alpha.12 (2026-07-28, all)", "next"],
  ["@modelcontextprotocol/conformance 0.1.16 (2025, active)", "legacy"],
] as const)("%s", (_title, suite) => {
  const run = runs[suite];
  const pending = PENDING[suite];
  const scenarios = [...run.scenarios.keys()];

  it("writes checks.json for every scenario in its summary", () => {
    expect(run.summary.length, run.output).toBeGreaterThan(0);
    expect([...run.summary].sort()).toEqual([...scenarios].sort());
  });

  it("exits with 1 exactly when some check failed", () => {
    const failed = scenarios.some((name) => failuresOf(run, name).length > 0);
    expect(run.exitCode, run.output).toBe(failed ? 1 : 0);
  });

  it("runs every scenario listed as pending", () => {
    expect(Object.keys(pending).filter((name) => !run.scenarios.has(name))).toEqual([]);
  });

  it.each(scenarios.filter((name) => !(name in pending)))("passes %s", (name) => {
    expect(failuresOf(run, name), `${name}: failed checks (id: message)`).toEqual([]);
  });

  it.each(scenarios.filter((name) => name in pending))(
    "still fails %s (pending; remove it from PENDING once it passes)",
    (name) => {
      const reason = pending[name];
      expect(failuresOf(run, name), `${name} passes now (pending: ${reason})`).not.toEqual([]);
    },
  );
});
