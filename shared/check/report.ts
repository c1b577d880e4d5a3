/** How a check came out: met, broke a MUST, missed a SHOULD (or an optional feature), or n/a. */
export type CheckStatus = "pass" | "fail" | "warn" | "skip";

/** The parts of the protocol the checks cover, in report order. */
export const CHECK_GROUPS = [
  "discover",
  "headers",
  "lists",
  "resources",
  "errors",
  "legacy",
  "cors",
  "messages",
] as const;
export type CheckGroup = (typeof CHECK_GROUPS)[number];

/** One check: a rule in words, how the server did, and what was seen when it did not pass. */
export type CheckResult = {
  /** Stable identifier, e.g. `headers.method-mismatch`, for filtering in CI scripts. */
  id: string;
  group: CheckGroup;
  title: string;
  status: CheckStatus;
  detail?: string;
  /** What the server's author can do about it, for a failure or a warning. */
  fix?: string;
};

/** Which era a server speaks: 2026-07-28 (`server/discover`), only the 2025 handshake, or neither. */
export type ServerEra = "modern" | "legacy" | "unknown";

/** A conformance report for one endpoint. */
export type CheckReport = {
  url: string;
  era: ServerEra;
  server?: { name: string; version: string };
  checks: CheckResult[];
  counts: Record<CheckStatus, number>;
  /** Present when the server answered a request with 401, asking for credentials. */
  unauthorized?: true;
  /**
   * Why the server could not be reached, when the run stopped there (`stopIfUnreachable`):
   * the checks made so far are in `checks`.
   */
  unreachable?: string;
  /** True when no check failed (warnings and skips do not fail a report). */
  ok: boolean;
};

/** How a report names each status: FAIL stands out in a terminal and on the page alike. */
export const STATUS_WORDS: Record<CheckStatus, string> = {
  pass: "pass",
  fail: "FAIL",
  warn: "warn",
  skip: "skip",
};

/** How a report names the era a server speaks. */
export const ERA_WORDS: Record<ServerEra, string> = {
  modern: "speaks 2026-07-28",
  legacy: "speaks only the 2025 handshake",
  unknown: "answers neither server/discover nor initialize",
};

/** The server a report is about and its era, in one line: `name version · speaks …`. */
export function serverText(report: CheckReport): string {
  const server = report.server ? `${report.server.name} ${report.server.version}` : "(unnamed)";
  // Behind a sign-in, a server's era is unknown because it was not asked, not because it failed.
  const era =
    report.unauthorized && report.era === "unknown"
      ? "asks for credentials before it answers (HTTP 401)"
      : ERA_WORDS[report.era];
  return `${server} · ${era}`;
}

/** A report's counts in one line. */
export function countsText({ pass, fail, warn, skip }: Record<CheckStatus, number>): string {
  return `${pass} passed · ${fail} failed · ${warn} ${warn === 1 ? "warning" : "warnings"} · ${skip} skipped`;
}

/** Counts the results by status. */
export function countStatuses(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const check of checks) counts[check.status]++;
  return counts;
}
