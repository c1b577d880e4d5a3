import {
  CHECK_GROUPS,
  countsText,
  serverText,
  STATUS_WORDS,
  type CheckReport,
} from "../shared/check/report.ts";

/** A check report for a terminal or a CI log: grouped, one line per check, details indented. */
export function reportText(report: CheckReport): string {
  const lines = [`edgemcp check · ${report.url}`, `server: ${serverText(report)}`];
  for (const group of CHECK_GROUPS) {
    const checks = report.checks.filter((check) => check.group === group);
    if (checks.length === 0) continue;
    lines.push("", group);
    for (const check of checks) {
      const inline = check.status === "pass" && check.detail ? ` (${check.detail})` : "";
      lines.push(`  ${STATUS_WORDS[check.status]}  ${check.title}${inline}`);
      if (check.status !== "pass" && check.detail) lines.push(`        ${check.detail}`);
      if (check.fix) lines.push(`        fix: ${check.fix}`);
    }
  }
  lines.push("", countsText(report.counts));
  return lines.join("\n");
}
