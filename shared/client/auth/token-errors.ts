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
      { url: endpoint, httpStatus: error.status },
    );
  }
  if (error instanceof oauth.OperationProcessingError) {
    if (error.message.includes('"access_token"')) {
      return new AuthError(
        step,
        "OAuth 2.1 §3.2.3",
        `The token response from ${endpoint} has no access_token.`,
        {
          fix: "The server's owner must return the access_token and its token_type in every successful token response.",
          url: endpoint,
        },
      );
    }
    if (error.code === oauth.PARSE_ERROR || error.code === oauth.RESPONSE_IS_NOT_JSON) {
      return new AuthError(
        step,
        "OAuth 2.1 §3.2.3",
        `The token response from ${endpoint} is not JSON.`,
        {
          fix: "The server's owner must answer token requests with a JSON object (Content-Type: application/json).",
          url: endpoint,
        },
      );
    }
    return new AuthError(
      step,
      "OAuth 2.1 §3.2.3",
      `The token response from ${endpoint} is unusable: ${error.message}.`,
      { fix: "The server's owner must answer as OAuth 2.1 §3.2.3 describes.", url: endpoint },
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
    { url: endpoint },
  );
}
