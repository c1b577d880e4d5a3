import type * as z from "zod/mini";
import "../../../shared/zod-locale.ts";

/** Zod issues as one readable line: `path: message; path: message`. */
export function describeIssues(error: z.core.$ZodError, root: string): string {
  return error.issues
    .map(
      (issue) =>
        `${issue.path.length > 0 ? `${root}.${issue.path.join(".")}` : root}: ${issue.message}`,
    )
    .join("; ");
}
