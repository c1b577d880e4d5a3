/**
 * A refusal at the HTTP level, before (or instead of) a JSON-RPC exchange: the status says what
 * kind, the message what to change, and `headers` go with the reply (`Allow`, `WWW-Authenticate`).
 * It is thrown; the MCP endpoint's one error path answers it.
 */
export class HttpError extends Error {
  override readonly name: string = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}
