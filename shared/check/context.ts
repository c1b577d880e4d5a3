import type { ServerCapabilities } from "../protocol/capabilities.ts";
import type { ServerRules } from "./era/era.ts";
import { unknown } from "./era/unknown.ts";
import { fixFor } from "./fixes.ts";
import type { Probe } from "./probe.ts";
import type { CheckGroup, CheckResult, CheckStatus } from "./report.ts";

/** What the checks found out about the server, for the checks that come after. */
export type Findings = {
  capabilities?: ServerCapabilities;
  server?: { name: string; version: string };
  /** The first resource listed, which the read check reads. */
  firstResource?: string;
};

/** The probe, the findings so far, and the results; each group of checks adds to them. */
export class CheckContext {
  readonly results: CheckResult[] = [];
  readonly found: Findings = {};
  /** What the run expects of the server: unknown until `server/discover` or `initialize` tells. */
  era: ServerRules = unknown;

  constructor(
    readonly probe: Probe,
    /** The browser origin the CORS checks present; none in a browser, which sets its own. */
    readonly origin: string | undefined,
    /** Whether the CORS checks go on to every hop a browser client needs (hops.ts). */
    readonly hops = false,
  ) {}

  /** Adds a result; a check that did not pass gets the fix for its id, or `fix` when given. */
  record(
    group: CheckGroup,
    id: string,
    title: string,
    status: CheckStatus,
    detail?: string,
    fix = status === "fail" || status === "warn" ? fixFor(id) : undefined,
  ) {
    this.results.push({
      id,
      group,
      title,
      status,
      ...(detail ? { detail } : {}),
      ...(fix ? { fix } : {}),
    });
  }

  /** Passes when `problem` is undefined; otherwise fails (or warns, for a SHOULD) with it. */
  expect(
    group: CheckGroup,
    id: string,
    title: string,
    problem: string | undefined,
    otherwise: "fail" | "warn" = "fail",
  ): boolean {
    this.record(group, id, title, problem === undefined ? "pass" : otherwise, problem);
    return problem === undefined;
  }

  /**
   * True when a 2026 check can run: the server speaks 2026-07-28 and advertised the capability
   * it needs. Otherwise records the check as skipped, saying why.
   */
  applies(
    group: CheckGroup,
    id: string,
    title: string,
    capability?: keyof ServerCapabilities,
  ): boolean {
    const no2026 = this.era.no2026;
    if (no2026 !== undefined) {
      this.record(group, id, title, "skip", no2026);
      return false;
    }
    if (capability !== undefined && !this.advertises(capability)) {
      this.record(group, id, title, "skip", `no ${capability} capability`);
      return false;
    }
    return true;
  }

  /** True when the server advertised the capability (`tools`, `prompts`, `resources`, ...). */
  advertises(capability: keyof ServerCapabilities): boolean {
    return this.found.capabilities?.[capability] !== undefined;
  }
}
