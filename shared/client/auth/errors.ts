import { McpError } from "../errors.ts";

/** The steps of MCP authorization, in the order a sign-in runs them. */
export const AUTH_STEPS = [
  "challenge",
  "resource-metadata",
  "server-metadata",
  "client",
  "authorization",
  "callback",
  "token",
  "refresh",
  "retry",
] as const;

export type AuthStepName = (typeof AUTH_STEPS)[number];

/** What an AuthError says besides its step, rule and problem. */
export type AuthErrorDetails = {
  /** What must change for the sign-in to work, addressed to whoever can change it. */
  fix?: string;
  /** The URL of the request whose answer broke the rule, when there was one. */
  url?: string;
  /** That answer's HTTP status. */
  httpStatus?: number;
  cause?: unknown;
};

/**
 * A sign-in that cannot go on: which step failed, the rule it broke (e.g. "RFC 8414 §3.3"), what
 * went wrong in the spec's terms (`problem`) and what the server's owner must change (`fix`,
 * when someone can). The message joins them. It never carries a token or a secret.
 */
export class AuthError extends McpError {
  readonly step: AuthStepName;
  readonly rule: string;
  readonly problem: string;
  readonly fix: string | undefined;
  readonly url: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(step: AuthStepName, rule: string, problem: string, details: AuthErrorDetails = {}) {
    const { fix, url, httpStatus, cause } = details;
    super(`${problem}${fix ? ` ${fix}` : ""} (${rule})`, {
      kind: "auth",
      ...(cause === undefined ? {} : { cause }),
    });
    this.step = step;
    this.rule = rule;
    this.problem = problem;
    this.fix = fix;
    this.url = url;
    this.httpStatus = httpStatus;
  }
}
