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

/**
 * A sign-in that cannot go on: which step failed, the rule it broke (e.g. "RFC 8414 §3.3") and,
 * in the message, what the server's owner must change. It never carries a token or a secret.
 */
export class AuthError extends McpError {
  readonly step: AuthStepName;
  readonly rule: string;

  constructor(step: AuthStepName, rule: string, message: string, cause?: unknown) {
    super(`${message} (${rule})`, { kind: "auth", ...(cause === undefined ? {} : { cause }) });
    this.step = step;
    this.rule = rule;
  }
}
