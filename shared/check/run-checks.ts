import type { FetchLike } from "../client/index.ts";
import { CheckContext } from "./context.ts";
import { corsChecks } from "./cors-checks.ts";
import { discoverChecks } from "./discover-checks.ts";
import { legacyChecks } from "./era/legacy-checks.ts";
import { errorChecks } from "./error-checks.ts";
import { headerChecks } from "./header-checks.ts";
import { listChecks } from "./list-checks.ts";
import { messageChecks } from "./message-checks.ts";
import { Probe } from "./probe.ts";
import { countStatuses, type CheckReport } from "./report.ts";
import { resourceChecks } from "./resource-checks.ts";

/** How to reach the server under check. */
export type CheckOptions = {
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** Sent with every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
  /**
   * The browser origin the CORS checks present. Leave it out in a browser, which sends its
   * own (and where a failing CORS setup shows as every request failing).
   */
  origin?: string;
  /**
   * Also check every hop a browser client on `origin` needs beyond the endpoint (a 401's
   * `WWW-Authenticate`, the OAuth metadata, `/register`, `/token`), each saying whether this
   * Worker's relay gets around it.
   */
  hops?: boolean;
  /** How long one request may take (default 15 s). */
  timeoutMs?: number;
  /**
   * Stop after `server/discover` when the server cannot be reached at all, and say why in
   * `unreachable`. Not for a browser, where a CORS refusal looks the same and the CORS checks
   * explain it.
   */
  stopIfUnreachable?: boolean;
};

// In order: discover settles the era and capabilities the later groups depend on.
const GROUPS: Array<(ctx: CheckContext) => Promise<void>> = [
  discoverChecks,
  headerChecks,
  listChecks,
  resourceChecks,
  errorChecks,
  legacyChecks,
  corsChecks,
];

/**
 * Checks an MCP endpoint against the 2026-07-28 revision (and the 2025 handshake): discover,
 * headers against bodies, every list and its cursors and cache hints, resource not-found,
 * version errors, `initialize`, CORS, and every message against shared/protocol's schemas.
 * It only reads: no tool is called, and what it sends for the refusals names nothing real.
 */
export async function runChecks(url: string, options: CheckOptions = {}): Promise<CheckReport> {
  const probe = new Probe({
    url,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    headers: { ...options.headers },
    timeoutMs: options.timeoutMs ?? 15_000,
  });
  const ctx = new CheckContext(probe, options.origin, options.hops ?? false);
  for (const group of GROUPS) {
    await group(ctx);
    if (options.stopIfUnreachable && probe.unreachable !== undefined) {
      return report(url, ctx, { unreachable: probe.unreachable });
    }
  }
  messageChecks(ctx);
  return report(url, ctx, probe.unauthorized ? { unauthorized: true } : {});
}

/** The report of the checks made; one that stopped at an unreachable server does not pass. */
function report(
  url: string,
  ctx: CheckContext,
  extra: Pick<CheckReport, "unauthorized" | "unreachable">,
): CheckReport {
  const counts = countStatuses(ctx.results);
  return {
    url,
    era: ctx.era.name,
    ...(ctx.found.server ? { server: ctx.found.server } : {}),
    checks: ctx.results,
    counts,
    ...extra,
    ok: counts.fail === 0 && extra.unreachable === undefined,
  };
}
