import type { AuthStepName } from "./errors.ts";

/**
 * One step of a sign-in as a flow view shows it: what was asked of whom, what came back, and the
 * rule checked. URLs and statuses only: tokens, codes and secrets never appear in a step.
 */
export type AuthEvent = {
  step: AuthStepName;
  status: "ok" | "failed" | "skipped";
  /** A sentence saying what happened (or, on failure, what went wrong in the spec's terms). */
  summary: string;
  /** The rule this step checked, e.g. "RFC 8414 §3.3". */
  rule?: string;
  /** On failure, what must change for the sign-in to work (usually the server owner's part). */
  fix?: string;
  /** The URL asked, when the step sent a request. */
  url?: string;
  /** The HTTP status of the answer, when there was one. */
  httpStatus?: number;
};

/** Receives each step of a sign-in as it ends. */
export type AuthObserver = (event: AuthEvent) => void;
