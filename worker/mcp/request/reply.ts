import type { JsonObject, JsonRpcId } from "../../../shared/protocol/messages.ts";
import { encodeSseMessage } from "../../../shared/sse.ts";
import type { ReplyMode } from "../../http/accept.ts";
import { SSE_HEADERS } from "../../http/sse.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { EraAdapter } from "../era/era.ts";
import { serializedBlocks } from "../results/ready.ts";

const encoder = new TextEncoder();

/**
 * A finished exchange: the JSON-RPC response and the HTTP status it would have alone. The
 * pipeline ends in one (or in a stream's response); the edge that sends it decides its form: the
 * HTTP edge a `Response` (`jsonResponse`), the in-process edge what a caller of this isolate
 * takes (`inProcessReply` in in-process.ts).
 */
export type Outcome = {
  /**
   * The JSON-RPC response: serialized, an object where it was built as one (failures), or a
   * method's result in its era's response, serialized or built by the edge that sends it.
   */
  message: string | JsonObject | EraResponse;
  /**
   * The result as UTF-8 bytes where they were kept (a list page), with the text of the message
   * before it: a JSON response is spliced from them instead of encoding `message`; a stream or
   * a caller of this isolate uses `message`.
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

/**
 * A method's result in the response of its request's era, made when it is sent: as text for HTTP
 * (the era's serialized form, which skips building the response object), as an object for a
 * caller of this isolate (which then parses nothing).
 */
export class EraResponse {
  constructor(
    private readonly era: EraAdapter,
    private readonly result: JsonObject,
    private readonly id: JsonRpcId,
    private readonly catalog: Catalog,
  ) {}

  text(): string {
    return this.era.result(this.result, this.id, this.catalog);
  }

  object(): JsonObject {
    return this.era.resultMessage(this.result, this.id, this.catalog);
  }

  /**
   * The response as UTF-8 bytes, when its result's content holds blocks serialized once
   * (`serializedText`, which splices them in); undefined otherwise.
   */
  bytes(): Uint8Array | undefined {
    return serializedBlocks.splice?.(this.result, (result) =>
      this.era.result(result, this.id, this.catalog),
    );
  }
}

/** An outcome's JSON-RPC response as text. */
export function serialized(message: Outcome["message"]): string {
  if (typeof message === "string") return message;
  return message instanceof EraResponse ? message.text() : JSON.stringify(message);
}

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
  const body = kept
    ? splice(kept)
    : message instanceof EraResponse
      ? (message.bytes() ?? message.text())
      : serialized(message);
  return new Response(body, {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}

const JSON_HEADERS: Readonly<Record<string, string>> = { "Content-Type": "application/json" };

/**
 * The respond stage for a call that sent nothing before its outcome: the outcome itself (which
 * its edge sends as a whole), or a one-event SSE stream for a client that accepts only that. (A
 * call that sent a notification first is answered by the stream its call opened, which the
 * outcome ends.)
 */
export function respond(outcome: Outcome, mode: ReplyMode): Response | Outcome {
  if (mode !== "sse-only") return outcome;
  const headers = outcome.headers ? { ...SSE_HEADERS, ...outcome.headers } : SSE_HEADERS;
  const body = encodeSseMessage(serialized(outcome.message));
  return new Response(body, { status: outcome.status, headers });
}

/** The HTTP edge: what the pipeline answered, as a response. */
export function httpReply(answer: Response | Outcome): Response {
  return answer instanceof Response ? answer : jsonResponse(answer);
}
