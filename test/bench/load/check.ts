import type { LoadCheck } from "../scenarios.ts";

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/** Whether an answer's body passes a scenario's load check (check.lua does the same for wrk). */
export function passes(body: string, check: LoadCheck): boolean {
  const bytes = Buffer.byteLength(body);
  return (
    bytes >= check.minBytes &&
    bytes <= check.maxBytes &&
    check.contains.every((needle) => body.includes(needle)) &&
    !check.absent.some((needle) => body.includes(needle)) &&
    check.counts.every(({ needle, times }) => occurrences(body, needle) === times)
  );
}

/**
 * `passes` for a stream of answers: a body equal to one that already passed is accepted without
 * scanning it again (servers repeat the same answer), so checking stays cheap under load.
 */
export function answerChecker(check: LoadCheck, remember = 16): (body: string) => boolean {
  const good = new Set<string>();
  return (body) => {
    if (good.has(body)) return true;
    if (!passes(body, check)) return false;
    if (good.size < remember) good.add(body);
    return true;
  };
}
