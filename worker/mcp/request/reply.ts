import type { JsonObject } from "../../../shared/protocol/messages.ts";
import { encodeSseMessage } from "../../../shared/sse.ts";
import type { ReplyMode } from "../../http/accept.ts";
import { SSE_HEADERS, SseWriter, type SseSettings } from "../../http/sse.ts";
import type { Notify } from "../call/context.ts";

/** A finished exchange: the JSON-RPC response and the HTTP status it would have alone. */
export type Outcome = {
  /**
   * The JSON-RPC response: serialized, or the object itself where it was built as one (failures,
   * and results for a caller of this isolate that takes the outcome as it is; see `Reply`).
   */
  message: string | JsonObject;
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
function serialized(message: string | JsonObject): string {
  return typeof message === "string" ? message : JSON.stringify(message);
}

/** An outcome as a plain `application/json` response. */
export function jsonResponse({ message, status, headers }: Outcome): Response {
  return new Response(serialized(message), {
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
 * The reply to one request while its call runs: plain JSON if the call finishes before sending
 * any notification, an SSE stream from the first notification on (when `Accept` allows it).
 * Closing that stream, or leaving too much of it unread, aborts `abort`; nothing is sent after
 * that. `handed`: the caller is in this isolate and takes a whole reply as its outcome (see
 * `whole`); a stream stays a stream.
 */
export class Reply {
  readonly response: Promise<Response | Outcome>;
  /** Sends a message before the response; false when the client cannot receive it. */
  readonly send: Notify;
  /** Aborts the call because the client went away (a listener for the request's signal). */
  readonly gone: () => void;
  #settle!: (response: Response | Outcome) => void;
  #stream: SseWriter | undefined;

  constructor(
    private readonly mode: ReplyMode,
    private readonly sse: SseSettings,
    private readonly abort: AbortController,
    readonly handed: boolean,
  ) {
    this.response = new Promise((resolve) => (this.#settle = resolve));
    // Assigned here rather than as an arrow property, which name-keeping bundlers rename per call.
    this.send = (message) => this.#send(message);
    this.gone = () => abort.abort(new Error("The client closed the request."));
  }

  #send(message: JsonObject): boolean {
    if (this.abort.signal.aborted || this.mode === "json-only") return false;
    this.#stream ??= this.#open();
    this.#stream.send(JSON.stringify(message));
    return true;
  }

  /** Ends the reply with the call's outcome: last on the stream, or as the whole response. */
  end(outcome: Outcome): void {
    if (this.#stream) {
      if (!this.abort.signal.aborted) this.#stream.send(serialized(outcome.message));
      this.#stream.close();
    } else if (this.mode === "sse-only") {
      const body = encodeSseMessage(serialized(outcome.message));
      const headers = outcome.headers ? { ...SSE_HEADERS, ...outcome.headers } : SSE_HEADERS;
      this.#settle(new Response(body, { status: outcome.status, headers }));
    } else {
      this.#settle(whole(outcome, this.handed));
    }
  }

  #open(): SseWriter {
    const writer = new SseWriter(this.sse, () =>
      this.abort.abort(new Error("The client closed the stream.")),
    );
    this.#settle(new Response(writer.readable, { headers: SSE_HEADERS }));
    return writer;
  }
}

/**
 * The respond stage: the response to a running call, settled by its first notification (a
 * stream) or by its outcome, whichever comes first.
 */
export function respond(reply: Reply, outcome: Promise<Outcome>): Promise<Response | Outcome> {
  void outcome.then((finished) => reply.end(finished));
  return reply.response;
}
