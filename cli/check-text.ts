import { CHECK_GROUPS, type CheckReport, type CheckStatus } from "../shared/check/report.ts";

const LABEL: Record<CheckStatus, string> = {
  pass: "pass",
  fail: "FAIL",
  warn: "warn",
  skip: "skip",
};

const ERA: Record<CheckReport["era"], string> = {
  modern: "speaks 2026-07-28",
  legacy: "speaks only the 2025 handshake",
  unknown: "answers neither server/discover nor initialize",
};

/** A check report for a terminal or a CI log: grouped, one line per check, details indented. */
export function reportText(report: CheckReport): string {
  const lines = [`edgemcp check · ${report.url}`];
  const server = report.server ? `${report.server.name} ${report.server.version}` : "(unnamed)";
  lines.push(`server: ${server} · ${ERA[report.era]}`);
  for (const group of CHECK_GROUPS) {
    const checks = report.checks.filter((check) => check.group === group);
    if (checks.length === 0) continue;
    lines.push("", group);
    for (const check of checks) {
      const inline = check.status === "pass" && check.detail ? ` (${check.detail})` : "";
      lines.push(`  ${LABEL[check.status]}  ${check.title}${inline}`);
      if (check.status !== "pass" && check.detail) lines.push(`        ${check.detail}`);
      if (check.fix) lines.push(`        fix: ${check.fix}`);
    }
  }
  const { pass, fail, warn, skip } = report.counts;
  lines.push("", `${pass} passed · ${fail} failed · ${warn} warnings · ${skip} skipped`);
  return lines.join("\n");
}
