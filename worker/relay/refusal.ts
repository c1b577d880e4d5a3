/** The rules the relay enforces, each named in its refusals (and in the `Relay-Error` header). */
export type RelayRule =
  | "relay-off"
  | "host-not-listed"
  | "bad-target"
  | "scheme"
  | "credentials-in-url"
  | "port"
  | "internal-address"
  | "loopback"
  | "origin"
  | "page-token"
  | "authentication"
  | "method"
  | "header"
  | "request-size"
  | "response-size"
  | "first-byte"
  | "concurrency"
  | "unreachable"
  | "unavailable"
  | "misconfigured";

/**
 * A relay request refused, or a target that failed: the status, the rule, and a message that
 * says what to change (the setting, when one changes it) and never how the Worker is built.
 */
export class RelayRefusal extends Error {
  override readonly name = "RelayRefusal";
  constructor(
    readonly status: number,
    readonly rule: RelayRule,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** The relay's own answer to a refusal: JSON `{error: {rule, message}}`, marked `Relay-Error`. */
export function refusalResponse(refusal: RelayRefusal): Response {
  return new Response(JSON.stringify({ error: { rule: refusal.rule, message: refusal.message } }), {
    status: refusal.status,
    headers: {
      ...refusal.headers,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "Relay-Error": refusal.rule,
    },
  });
}
