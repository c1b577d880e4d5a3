import { runChecks } from "../../shared/check/run-checks.ts";
import type { CheckReport, CheckStatus } from "../../shared/check/report.ts";
import { fakeServer, type Quirk } from "./fake-server.ts";

/** The origin the CORS checks present in these tests. */
export const ORIGIN = "http://localhost:6274";

/** Checks the fake server with the given quirks. */
export function checkFake(...quirks: Quirk[]): Promise<CheckReport> {
  return runChecks("http://fake.test/mcp", { fetch: fakeServer(...quirks), origin: ORIGIN });
}

/** How one check came out, and what it said. */
export function outcome(report: CheckReport, id: string): { status: CheckStatus; detail?: string } {
  const check = report.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id} in the report`);
  return { status: check.status, ...(check.detail ? { detail: check.detail } : {}) };
}

/** Every check that did not pass (nor skip, with `skips: false`), by id. */
export function notPassed(report: CheckReport, skips = true): Record<string, CheckStatus> {
  return Object.fromEntries(
    report.checks
      .filter((c) => c.status !== "pass" && (skips || c.status !== "skip"))
      .map((c) => [c.id, c.status]),
  );
}
