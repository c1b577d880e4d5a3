import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { encodeSseMessage } from "../../../shared/sse.ts";
import type { ReplyMode } from "../../http/accept.ts";
import { SSE_HEADERS } from "../../http/sse.ts";

/** A finished exchange: the JSON-RPC response and the HTTP status it would have alone. */
export type Outcome = {
  /**
   * The JSON-RPC response: serialized, or the object itself where it was built as one (failures,
   * and results for a caller of this isolate that takes the outcome as it is: `handed`).
   */
  message: string | JsonObject;
  /**
   * The result as UTF-8 bytes where they were kept (a list page), with the text of the message
   * before it: a JSON response is spliced from them instead of encoding `message`; a stream or
   * a handed outcome uses `message`.
   */
  kept?: { head: string; result: Uint8Array };
  status: number;
  /**
   * HTTP headers that go with it (`Allow`, `Retry-After`, a 2025 `initialize`'s
   * `Mcp-Session-Id`); a reply that became a stream before the outcome has its headers already.
   */
  headers?: Readonly<Record<string, string>>;
  /** The JSON-RPC error it carries, for the request's log line. */
  error?: { code: number; message: string };
};

/** An outcome's JSON-RPC response as text. */
export function serialized(message: string | JsonObject): string {
  return typeof message === "string" ? message : JSON.stringify(message);
}

const encoder = new TextEncoder();

/**
 * The bytes of a JSON-RPC response whose result is kept as bytes: `head` (the response up to
 * its result), the result, and the closing brace, in one buffer.
 */
function splice({ head, result }: { head: string; result: Uint8Array }): Uint8Array {
  const start = encoder.encode(head);
  const bytes = new Uint8Array(start.byteLength + result.byteLength + 1);
  bytes.set(start);
  bytes.set(result, start.byteLength);
  bytes[bytes.byteLength - 1] = 0x7d; // }
  return bytes;
}

/** An outcome as a plain `application/json` response. */
export function jsonResponse({ message, kept, status, headers }: Outcome): Response {
  return new Response(kept ? splice(kept) : serialized(message), {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "Content-Type": "application/json" };

/**
 * A whole reply (an outcome, not a stream): for a caller of this isolate that takes outcomes
 * (`handed`), the outcome itself when it succeeded at the HTTP level, else a JSON response. A
 * refusal stays a response, with its status and headers, as such a caller would read it anyway.
 */
export function whole(outcome: Outcome, handed: boolean): Response | Outcome {
  return handed && outcome.status < 300 ? outcome : jsonResponse(outcome);
}

/**
 * The respond stage for a call that sent nothing before its outcome: the whole reply, as JSON
 * (or the outcome itself, `handed`), or as a one-event SSE stream for a client that accepts only
 * that. (A call that sent a notification first is answered by the stream its call opened, which
 * the outcome ends.)
 */
export function respond(outcome: Outcome, mode: ReplyMode, handed: boolean): Response | Outcome {
  if (mode !== "sse-only") return whole(outcome, handed);
  const headers = outcome.headers ? { ...SSE_HEADERS, ...outcome.headers } : SSE_HEADERS;
  const body = encodeSseMessage(serialized(outcome.message));
  return new Response(body, { status: outcome.status, headers });
}
