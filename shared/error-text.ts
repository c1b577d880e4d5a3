/** What an error says, for a message: its own message, or the thrown value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a fetch got no reply: the error's message and, where the runtime keeps the reason in
 * `cause` (Node's "fetch failed" does: a refused connection, an unknown host, a TLS failure),
 * that reason's first line too, so a person can tell which.
 */
export function fetchFailureText(error: unknown): string {
  const text = errorText(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error)) return text;
  const code = "code" in cause && typeof cause.code === "string" ? cause.code : "";
  const reason = cause.message.trim().split("\n")[0] || code;
  return reason === "" ? text : `${text} (${reason})`;
}
