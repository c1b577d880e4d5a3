import * as oauth from "oauth4webapi";
import { AuthError, type AuthStepName } from "./errors.ts";

/** A token endpoint failure in the spec's words; never with the request's code or secrets. */
export function describeTokenError(
  error: unknown,
  endpoint: string,
  step: AuthStepName,
): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const description = error.error_description ? `: ${error.error_description}` : "";
    return new AuthError(
      step,
      "OAuth 2.1 §3.2.4",
      `The token endpoint ${endpoint} answered HTTP ${error.status} "${error.error}"${description}.`,
    );
  }
  if (error instanceof oauth.OperationProcessingError) {
    if (error.message.includes('"access_token"')) {
      return new AuthError(
        step,
        "OAuth 2.1 §3.2.3",
        `The token response from ${endpoint} has no access_token.`,
      );
    }
    if (error.code === oauth.PARSE_ERROR) {
      return new AuthError(
        step,
        "OAuth 2.1 §3.2.3",
        `The token response from ${endpoint} is not JSON.`,
      );
    }
    return new AuthError(
      step,
      "OAuth 2.1 §3.2.3",
      `The token response from ${endpoint} is unusable: ${error.message}.`,
    );
  }
  if (error instanceof oauth.UnsupportedOperationError) {
    return new AuthError(
      step,
      "OAuth 2.1 §3.2.3",
      `The token response from ${endpoint} is unusable: ${error.message}.`,
    );
  }
  return new AuthError(
    step,
    "network",
    `The token request to ${endpoint} failed: ${error instanceof Error ? error.message : String(error)}.`,
  );
}
