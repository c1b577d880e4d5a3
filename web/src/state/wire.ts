import { signal } from "@preact/signals";
import {
  checkHttpReply,
  checkRequest,
  checkServerMessage,
  requestEra,
  type Finding,
} from "../../../shared/check/index.ts";
import type { FetchLike } from "../../../shared/client/index.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { JsonRpcId } from "../../../shared/protocol/messages.ts";
import { relayHeaders } from "../../../shared/relay.ts";
import { carriesMessage, decodeSse, type SseCursor, type SseEvent } from "../../../shared/sse.ts";

/**
 * One SSE event (or the JSON body), when it arrived, and what the checks found in it. An event
 * that carries no message (a 2025 priming event) has a `note` saying what it is instead.
 */
export type Frame = {
  at: number;
  data: string;
  message: unknown;
  findings: Finding[];
  /** The stream's last event id when the event arrived. */
  eventId?: string;
  note?: string;
};

/** One HTTP exchange as it happened, filled in while the response streams. */
export type Exchange = {
  id: number;
  /** Bumped on every change, so views re-render. */
  rev: number;
  startedAt: number;
  url: string;
  httpMethod: string;
  rpcMethod?: string;
  rpcId?: JsonRpcId;
  /** The tool or prompt name, resource URI or task id the request is about. */
  subject?: string;
  /** The W3C trace id of the playground action that sent it. */
  traceId?: string;
  era: "modern" | "legacy";
  requestHeaders: [string, string][];
  requestBody: string;
  /**
   * The first leg, when the exchange went through this Worker's relay: what the page sent to
   * it. `url`, `requestHeaders` and the response are then the second leg, the relay's exchange
   * with the target (the relay forwards exactly these headers and passes back only the ones a
   * client reads).
   */
  relay?: { url: string; requestHeaders: [string, string][] };
  status?: number;
  responseHeaders?: [string, string][];
  contentType?: string;
  /** Milliseconds from the start to the response headers, to each frame, to the end. */
  ttfb?: number;
  end?: number;
  frames: Frame[];
  bytes: number;
  /** The exchange whose dropped stream this GET (with `Last-Event-ID`) resumes. */
  resumes?: number;
  /** A non-JSON, non-SSE body's first characters (an HTML error page, a text 404). */
  bodyText?: string;
  /** Whether the body carried the response to the request (a frame beyond the cap counts). */
  answered?: boolean;
  /** The client stopped reading the body before its end (done with it, or cancelling). */
  cancelled?: boolean;
  error?: string;
  findings: Finding[];
};

const MAX_EXCHANGES = 400;
// Which exchange each last event id was seen on, so a resuming GET is tied to its request.
const streamsByEventId = new Map<string, Exchange>();
const MAX_FRAMES = 2000;
const MAX_BODY_CHARS = 200_000;
// Statuses whose responses must not have a body (a Response built with one throws).
const NULL_BODY = [101, 204, 205, 304];

/** Every exchange of this page, oldest first (bounded). */
export const exchanges = signal<Exchange[]>([]);
let nextId = 1;
let scheduled = false;

function publish(exchange: Exchange): void {
  exchange.rev++;
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    exchanges.value = exchanges.value.slice(-MAX_EXCHANGES);
  });
}

export function clearWire(): void {
  exchanges.value = [];
}

function describeRequest(
  body: string,
  headers: [string, string][],
): Partial<Exchange> & { findings: Finding[] } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {
      findings:
        body === ""
          ? []
          : [{ level: "error", rule: "request.json", message: "The body is not JSON." }],
    };
  }
  const bag = Object.fromEntries(headers);
  const params = isJsonObject(json) && isJsonObject(json.params) ? json.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  const trace = typeof meta.traceparent === "string" ? meta.traceparent.split("-")[1] : undefined;
  const subject = [params.name, params.uri, params.taskId].find((v) => typeof v === "string");
  const id = isJsonObject(json) ? json.id : undefined;
  return {
    era: requestEra(json, bag),
    ...(isJsonObject(json) && typeof json.method === "string" ? { rpcMethod: json.method } : {}),
    ...(typeof id === "string" || typeof id === "number" ? { rpcId: id } : {}),
    ...(typeof subject === "string" ? { subject } : {}),
    ...(trace ? { traceId: trace } : {}),
    findings: checkRequest(json, bag),
  };
}

function addFrame(exchange: Exchange, data: string, at: number): void {
  let message: unknown;
  let findings: Finding[];
  try {
    message = JSON.parse(data);
    findings = checkServerMessage(message, {
      method: exchange.rpcMethod ?? "",
      ...(exchange.rpcId === undefined ? {} : { requestId: exchange.rpcId }),
      era: exchange.era,
      ...(exchange.status === undefined ? {} : { status: exchange.status }),
    });
  } catch {
    message = undefined;
    findings = [{ level: "error", rule: "message.json", message: "The message is not JSON." }];
  }
  if (answers(message, exchange)) exchange.answered = true;
  if (exchange.frames.length < MAX_FRAMES) exchange.frames.push({ at, data, message, findings });
  publish(exchange);
}

/** What an event that carries no MCP message is, for the frame's note. */
function noteOf(event: SseEvent): string {
  if (event.event !== "message")
    return `An SSE "${event.event}" event, which carries no MCP message.`;
  return event.id === undefined
    ? "An empty event: it carries no message."
    : `A priming event: no message, only the id ${event.id} to resume the stream from if it drops.`;
}

function addEventFrame(exchange: Exchange, event: SseEvent, at: number): void {
  if (event.id !== undefined) remember(event.id, exchange);
  const index = exchange.frames.length;
  if (carriesMessage(event)) addFrame(exchange, event.data, at);
  else if (index < MAX_FRAMES) {
    exchange.frames.push({
      at,
      data: event.data,
      message: undefined,
      findings: [],
      note: noteOf(event),
    });
    publish(exchange);
  }
  const added = exchange.frames[index];
  if (added && event.id !== undefined) added.eventId = event.id;
}

function remember(eventId: string, exchange: Exchange): void {
  streamsByEventId.delete(eventId);
  streamsByEventId.set(eventId, exchange);
  if (streamsByEventId.size > MAX_EXCHANGES) {
    const oldest = streamsByEventId.keys().next().value;
    if (oldest !== undefined) streamsByEventId.delete(oldest);
  }
}

async function recordBody(
  exchange: Exchange,
  copy: ReadableStream<Uint8Array>,
  t0: number,
): Promise<void> {
  try {
    if (exchange.contentType === "text/event-stream") {
      const cursor: SseCursor = {};
      try {
        for await (const event of decodeSse(copy, cursor))
          addEventFrame(exchange, event, performance.now() - t0);
      } finally {
        // An id on an event without data is not dispatched but is still where a resume starts.
        if (cursor.lastEventId !== undefined) remember(cursor.lastEventId, exchange);
      }
    } else {
      const text = await new Response(copy).text();
      if (exchange.contentType === "application/json" && text !== "")
        addFrame(exchange, text, performance.now() - t0);
      else if (text !== "") exchange.bodyText = text.slice(0, MAX_BODY_CHARS);
    }
  } catch (error) {
    exchange.error = String(error);
  }
  // A client stops reading a stream once it has its answer; closing one before that is what a
  // cancelled call or a closed listen stream looks like.
  if (exchange.cancelled && !exchange.answered) exchange.error ??= "closed by the client";
  exchange.end = performance.now() - t0;
  publish(exchange);
}

/** Whether a message is the JSON-RPC response to the exchange's request. */
function answers(message: unknown, exchange: Exchange): boolean {
  return (
    exchange.rpcId !== undefined &&
    typeof message === "object" &&
    message !== null &&
    "id" in message &&
    message.id === exchange.rpcId &&
    ("result" in message || "error" in message)
  );
}

/**
 * The body as the client reads it, each chunk also copied to the recorder. Cancelling it (the
 * client closing a stream, which is how a call is cancelled) cancels the network read itself:
 * a tee would keep the connection open for its other branch, and the server would never know.
 */
function passThrough(
  exchange: Exchange,
  body: ReadableStream<Uint8Array>,
  t0: number,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let copy!: ReadableStreamDefaultController<Uint8Array>;
  const copied = new ReadableStream<Uint8Array>({
    start: (controller) => void (copy = controller),
  });
  void recordBody(exchange, copied, t0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          copy.close();
          controller.close();
          return;
        }
        exchange.bytes += value.byteLength;
        copy.enqueue(value.slice());
        controller.enqueue(value);
      } catch (error) {
        copy.error(error);
        controller.error(error);
      }
    },
    cancel(reason) {
      // The recorder still reads what arrived before; it decides once it has (recordBody).
      exchange.cancelled = true;
      copy.close();
      return reader.cancel(reason);
    },
  });
}

/**
 * A fetch that records every exchange for the wire view: request headers and body as sent,
 * response status and headers, each SSE event with its arrival time, byte counts, and the
 * protocol checks. The recorder sees the bytes the client reads; nothing is changed.
 */
export function recordingFetch(
  inner: FetchLike = (url, init) => fetch(url, init),
  via?: { relayUrl: string },
): FetchLike {
  return async (url, init) => {
    const t0 = performance.now();
    const requestHeaders = [...new Headers(init.headers).entries()];
    const requestBody = typeof init.body === "string" ? init.body : "";
    const exchange: Exchange = {
      id: nextId++,
      rev: 0,
      startedAt: Date.now(),
      url,
      httpMethod: init.method ?? "GET",
      era: "modern",
      requestHeaders,
      requestBody,
      frames: [],
      bytes: 0,
      ...describeRequest(requestBody, requestHeaders),
      ...(via
        ? {
            relay: {
              url: via.relayUrl,
              requestHeaders: [...relayHeaders(url, init, "(this page's relay token)").entries()],
            },
          }
        : {}),
    };
    resumeOf(exchange);
    exchanges.value = [...exchanges.value, exchange].slice(-MAX_EXCHANGES);
    let response: Response;
    try {
      response = await inner(url, init);
    } catch (error) {
      exchange.error = init.signal?.aborted
        ? "aborted before an answer"
        : `no answer: ${String(error)}`;
      exchange.end = performance.now() - t0;
      publish(exchange);
      throw error;
    }
    exchange.ttfb = performance.now() - t0;
    exchange.status = response.status;
    exchange.responseHeaders = [...response.headers.entries()];
    exchange.contentType = (response.headers.get("Content-Type") ?? "")
      .split(";")[0]!
      .trim()
      .toLowerCase();
    const notification = exchange.rpcMethod !== undefined && exchange.rpcId === undefined;
    if (exchange.httpMethod === "POST" && exchange.rpcMethod !== undefined)
      exchange.findings.push(
        ...checkHttpReply(response.status, Object.fromEntries(exchange.responseHeaders), {
          era: exchange.era,
          notification,
        }),
      );
    publish(exchange);
    if (!response.body || NULL_BODY.includes(response.status)) {
      exchange.end = exchange.ttfb;
      return response;
    }
    const body = passThrough(exchange, response.body, t0);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * A GET with `Last-Event-ID` resumes the stream of an earlier request: it carries that
 * request's messages, so it is checked (and shown) as that request's.
 */
function resumeOf(exchange: Exchange): void {
  if (exchange.httpMethod !== "GET") return;
  const lastEventId = exchange.requestHeaders.find(([name]) => name === "last-event-id")?.[1];
  const origin = lastEventId === undefined ? undefined : streamsByEventId.get(lastEventId);
  if (origin === undefined) return;
  exchange.resumes = origin.id;
  exchange.era = origin.era;
  if (origin.rpcMethod !== undefined) exchange.rpcMethod = origin.rpcMethod;
  if (origin.rpcId !== undefined) exchange.rpcId = origin.rpcId;
  if (origin.subject !== undefined) exchange.subject = origin.subject;
  if (origin.traceId !== undefined) exchange.traceId = origin.traceId;
}

/** A finding count for a badge: errors, then warnings. */
export function findingsOf(exchange: Exchange): Finding[] {
  return [...exchange.findings, ...exchange.frames.flatMap((f) => f.findings)];
}
