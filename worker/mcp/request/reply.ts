import { encodeSseMessage } from "../../../shared/sse.ts";
import type { ReplyMode } from "../../http/accept.ts";
import { SSE_HEADERS } from "../../http/sse.ts";

/** A finished exchange, serialized: the JSON-RPC response and the HTTP status it would have alone. */
export type Outcome = {
  json: string;
  status: number;
  /**
   * HTTP headers that go with it (`Allow`, `Retry-After`, a 2025 `initialize`'s
   * `Mcp-Session-Id`); a reply that became a stream before the outcome has its headers already.
   */
  headers?: Readonly<Record<string, string>>;
  /** The JSON-RPC error it carries, for the request's log line. */
  error?: { code: number; message: string };
};

/** An outcome as a plain `application/json` response. */
export function jsonResponse({ json, status, headers }: Outcome): Response {
  return new Response(json, {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "Content-Type": "application/json" };

/**
 * The respond stage for a call that sent nothing before its outcome: the whole reply, as JSON,
 * or as a one-event SSE stream for a client that accepts only that. (A call that sent a
 * notification first is answered by the stream its call opened, which the outcome ends.)
 */
export function respond(outcome: Outcome, mode: ReplyMode): Response {
  if (mode !== "sse-only") return jsonResponse(outcome);
  const headers = outcome.headers ? { ...SSE_HEADERS, ...outcome.headers } : SSE_HEADERS;
  return new Response(encodeSseMessage(outcome.json), { status: outcome.status, headers });
}
