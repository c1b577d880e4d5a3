import type { AuthError, AuthStepName } from "../../shared/client/auth/index.ts";
import { fetchFailureText } from "../../shared/error-text.ts";

/** What each step of a sign-in does, as the end of "Could not …". */
const STEP_WORDS: Record<AuthStepName, string> = {
  challenge: "reach the server to learn how to sign in",
  "resource-metadata": "fetch the server's protected resource metadata",
  "server-metadata": "fetch the authorization server's metadata",
  client: "register this command with the authorization server",
  authorization: "start the sign-in",
  callback: "take the browser's answer to the sign-in",
  token: "get a token from the authorization server",
  refresh: "refresh the token at the authorization server",
  retry: "send the request again with the new token",
};

/** A request's address for a message: no query or fragment, which may carry secrets. */
function shownUrl(text: string): string {
  if (!URL.canParse(text)) return "the server";
  const url = new URL(text);
  return `${url.origin}${url.pathname}`;
}

/**
 * A failed sign-in for a person: a request that got no answer names the step, the address and
 * the reason; any other failure keeps its message, with the rule the server broke.
 */
export function authFailureText(error: AuthError): string {
  if (error.rule !== "network") return error.message;
  const step = STEP_WORDS[error.step];
  if (error.url === undefined || error.cause === undefined) {
    return `Could not ${step}: ${error.problem}`;
  }
  return `Could not ${step} (${shownUrl(error.url)}): ${fetchFailureText(error.cause)}.`;
}
