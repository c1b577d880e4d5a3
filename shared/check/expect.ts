import type { Exchange } from "./probe.ts";

/** How an exchange went, in a few words, for a check's detail. */
export function described(exchange: Exchange): string {
  if (exchange.status === 0) return exchange.problem ?? "no reply";
  const status = `HTTP ${exchange.status}`;
  if (exchange.error) {
    return `${status} with error ${exchange.error.code}: ${exchange.error.message.slice(0, 160)}`;
  }
  if (exchange.result) return `${status} with a result`;
  return exchange.problem
    ? `${status} (${exchange.problem})`
    : `${status} without a JSON-RPC response`;
}

/**
 * What is wrong with an exchange that should be refused with JSON-RPC error `code` (and the
 * HTTP status, when the spec fixes one); undefined when it was.
 */
export function refusal(exchange: Exchange, code: number, status?: number): string | undefined {
  if (exchange.error?.code === code && (status === undefined || exchange.status === status)) {
    return undefined;
  }
  const wanted = status === undefined ? `error ${code}` : `HTTP ${status} with error ${code}`;
  return `expected ${wanted}, got ${described(exchange)}`;
}

/** What is wrong with an exchange that should have succeeded; undefined when it did. */
export function failure(exchange: Exchange): string | undefined {
  return exchange.status === 200 && exchange.result ? undefined : `got ${described(exchange)}`;
}

/** The first problem of several, joined with the count of the rest. */
export function firstProblems(problems: readonly string[], shown = 3): string | undefined {
  if (problems.length === 0) return undefined;
  const rest = problems.length - shown;
  return problems.slice(0, shown).join("; ") + (rest > 0 ? ` (and ${rest} more)` : "");
}

/** What is wrong with a result's `ttlMs`/`cacheScope` (required on cacheable 2026 results). */
export function cacheHintProblem(result: Record<string, unknown>): string | undefined {
  const { ttlMs, cacheScope } = result;
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs < 0) {
    return `ttlMs must be a number of milliseconds, 0 or more (got ${JSON.stringify(ttlMs)})`;
  }
  if (cacheScope !== "public" && cacheScope !== "private") {
    return `cacheScope must be "public" or "private" (got ${JSON.stringify(cacheScope)})`;
  }
  return undefined;
}
