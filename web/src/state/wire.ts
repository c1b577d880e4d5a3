import { signal } from "@preact/signals";
import { checkServerMessage, type Finding } from "../../../shared/check/index.ts";
import { carriesMessage, type SseEvent } from "../../../shared/sse.ts";
import { answers, noteOf, type Exchange } from "../lib/exchange.ts";

export const MAX_EXCHANGES = 400;
// Which exchange each last event id was seen on, so a resuming GET is tied to its request.
const streamsByEventId = new Map<string, Exchange>();
const MAX_FRAMES = 2000;
export const MAX_BODY_CHARS = 200_000;

/** Every exchange of this page, oldest first (bounded). */
export const exchanges = signal<Exchange[]>([]);
let nextId = 1;
let scheduled = false;

export function publish(exchange: Exchange): void {
  exchange.rev++;
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    exchanges.value = exchanges.value.slice(-MAX_EXCHANGES);
  });
}

/** The next exchange's number (1, 2, …, for this page). */
export function nextExchangeId(): number {
  return nextId++;
}

export function clearWire(): void {
  exchanges.value = [];
}

export function addFrame(exchange: Exchange, data: string, at: number): void {
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

export function addEventFrame(exchange: Exchange, event: SseEvent, at: number): void {
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

export function remember(eventId: string, exchange: Exchange): void {
  streamsByEventId.delete(eventId);
  streamsByEventId.set(eventId, exchange);
  if (streamsByEventId.size > MAX_EXCHANGES) {
    const oldest = streamsByEventId.keys().next().value;
    if (oldest !== undefined) streamsByEventId.delete(oldest);
  }
}

/**
 * A GET with `Last-Event-ID` resumes the stream of an earlier request: it carries that
 * request's messages, so it is checked (and shown) as that request's.
 */
export function resumeOf(exchange: Exchange): void {
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
