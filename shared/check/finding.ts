import * as z from "zod/mini";
import { issueText } from "../zod-issues.ts";

/** One thing a check found: a rule broken (error) or a recommendation not followed (warning). */
export type Finding = {
  level: "error" | "warning";
  /** A stable, short name for the rule, e.g. `result.shape` or `header.mcp-method`. */
  rule: string;
  message: string;
};

export function error(rule: string, message: string): Finding {
  return { level: "error", rule, message };
}

export function warning(rule: string, message: string): Finding {
  return { level: "warning", rule, message };
}

/** Checks a value against a schema; each issue becomes one finding that names its path. */
export function schemaFindings(
  schema: z.core.$ZodType,
  value: unknown,
  rule: string,
  what: string,
): Finding[] {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return [];
  return parsed.error.issues.slice(0, 10).map((issue) => {
    const path = issue.path.map(String).join(".");
    return error(rule, `${what}${path === "" ? "" : ` at ${path}`}: ${issueText(issue, value)}`);
  });
}
