import type { FetchLike } from "../client/index.ts";
import { OversizedBodyError, readTextWithin } from "../bounded-body.ts";
import { errorText, fetchFailureText } from "../error-text.ts";
import { isJsonObject } from "../jsonrpc.ts";
import type { JsonObject } from "../protocol/messages.ts";
import { encodeHeaderValue, Header } from "../protocol/headers.ts";
import { JsonRpcErrorObjectSchema } from "../protocol/messages.ts";
import { MetaKey } from "../protocol/meta.ts";
import { NAME_PARAM } from "../protocol/methods.ts";
import { MODERN_VERSION, type Era } from "../protocol/versions.ts";
import { carriesMessage, decodeSse, SseError } from "../sse.ts";

/** Where and how the checks reach the server. */
export type ProbeOptions = {
  url: string;
  fetch: FetchLike;
  /** Sent with every request (credentials). */
  headers: Record<string, string>;
  timeoutMs: number;
};

/** One message the server sent, with the request it came back on, for the message checks. */
export type Received = { method: string; era: Era; message: unknown };

/** An HTTP exchange as the checks see it. */
export type Exchange = {
  status: number;
  headers: Headers;
  messages: unknown[];
  /** The response's result or error, when the reply carried a response. */
  result?: JsonObject;
  error?: { code: number; message: string; data?: unknown };
  /** Why the reply could not be read (network failure, timeout, unparseable body). */
  problem?: string;
};

/** Changes to a well-formed 2026 request: header values (null removes one), `_meta` members. */
export type Tweaks = {
  headers?: Record<string, string | null>;
  meta?: Record<string, unknown>;
  dropMeta?: string[];
  version?: string;
};

const CLIENT_INFO = { name: "edgemcp-check", version: "1.0.0" };

/**
 * The most a reply's JSON body, or one of its SSE events, may weigh for the checks: their
 * requests are small and so are the answers, and a server that streams without end must not
 * fill the checker's memory (the client's default reply bound).
 */
export const MAX_PROBE_REPLY_BYTES = 16 * 1024 * 1024;

/** Sends the checks' requests and keeps every message the server sent back. */
export class Probe {
  readonly received: Received[] = [];
  /** Whether the server answered a request with 401: the checks then saw what it shows a stranger. */
  unauthorized = false;
  /**
   * Why the server could not be reached (DNS, refused connection, TLS, ...), when no request
   * ever got an answer: the checks then saw nothing of it.
   */
  unreachable: string | undefined;
  private answered = false;
  private nextId = 1;

  constructor(readonly options: ProbeOptions) {}

  /** A 2026-07-28 request with the headers its body implies, changed by `tweaks`. */
  modern(method: string, params: JsonObject = {}, tweaks: Tweaks = {}): Promise<Exchange> {
    const version = tweaks.version ?? MODERN_VERSION;
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: version,
      [MetaKey.clientCapabilities]: {},
      [MetaKey.clientInfo]: CLIENT_INFO,
      ...tweaks.meta,
    };
    for (const key of tweaks.dropMeta ?? []) delete meta[key];
    const member = NAME_PARAM[method];
    const name = member === undefined ? undefined : params[member];
    const headers: Record<string, string> = {
      [Header.protocolVersion]: version,
      [Header.method]: method,
      ...(typeof name === "string" ? { [Header.name]: encodeHeaderValue(name) } : {}),
    };
    for (const [key, value] of Object.entries(tweaks.headers ?? {})) {
      if (value === null) delete headers[key];
      else headers[key] = value;
    }
    const body = { jsonrpc: "2.0", id: this.nextId++, method, params: { ...params, _meta: meta } };
    return this.post("modern", method, body, headers);
  }

  /** A 2025-era request (or, without `withId`, a notification) with a session's headers. */
  legacy(
    method: string,
    params: JsonObject | undefined,
    headers: Record<string, string>,
    withId = true,
  ): Promise<Exchange> {
    const body = {
      jsonrpc: "2.0",
      ...(withId ? { id: this.nextId++ } : {}),
      method,
      ...(params ? { params } : {}),
    };
    return this.post("legacy", method, body, headers);
  }

  /** Any request, for the CORS checks: the raw response, body discarded. */
  async raw(method: string, headers: Record<string, string>, body?: string): Promise<Exchange> {
    try {
      const response = await this.options.fetch(this.options.url, {
        method,
        headers: { ...this.options.headers, ...headers },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, messages: [] };
    } catch (error) {
      return { status: 0, headers: new Headers(), messages: [], problem: fetchFailureText(error) };
    }
  }

  private async post(
    era: Received["era"],
    method: string,
    body: JsonObject,
    transport: Record<string, string>,
  ): Promise<Exchange> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await this.options.fetch(this.options.url, {
        method: "POST",
        headers: {
          ...this.options.headers,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...transport,
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) {
        return { status: 0, headers: new Headers(), messages: [], problem: "no reply in time" };
      }
      const why = fetchFailureText(error);
      if (!this.answered) this.unreachable = why;
      return { status: 0, headers: new Headers(), messages: [], problem: `unreachable: ${why}` };
    }
    this.answered = true;
    this.unreachable = undefined;
    const exchange: Exchange = { status: response.status, headers: response.headers, messages: [] };
    if (response.status === 401) {
      // The authorization layer's answer (RFC 6750), not an MCP reply: its body is no message.
      this.unauthorized = true;
      await response.body?.cancel();
      return { ...exchange, problem: "it asks for credentials" };
    }
    try {
      for await (const message of readMessages(response)) {
        exchange.messages.push(message);
        this.received.push({ method, era, message });
        if (
          isJsonObject(message) &&
          !("method" in message) &&
          (message.id === body.id || message.id == null)
        ) {
          if (isJsonObject(message.result)) exchange.result = message.result;
          const error = JsonRpcErrorObjectSchema.safeParse(message.error);
          if (error.success) exchange.error = error.data;
          break;
        }
      }
    } catch (error) {
      exchange.problem = signal.aborted
        ? "the reply did not finish in time"
        : error instanceof OversizedBodyError || error instanceof SseError
          ? `the reply is larger than ${MAX_PROBE_REPLY_BYTES} bytes (16 MiB), more than the checks read; the rest was not read`
          : errorText(error);
    }
    return exchange;
  }
}

/** The messages of a reply: one JSON body, or the SSE stream's events (empty for 202). */
async function* readMessages(response: Response): AsyncGenerator<unknown> {
  const type = response.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "text/event-stream" && response.body) {
    for await (const event of decodeSse(response.body, {}, MAX_PROBE_REPLY_BYTES)) {
      if (carriesMessage(event)) yield JSON.parse(event.data);
    }
    return;
  }
  const text = await readTextWithin(response, MAX_PROBE_REPLY_BYTES);
  if (text.trim() === "") return;
  if (type !== "application/json") throw new Error(`a ${type || "untyped"} body, not JSON or SSE`);
  yield JSON.parse(text);
}
