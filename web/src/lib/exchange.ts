import { checkRequest, requestEra, type Finding } from "../../../shared/check/index.ts";
import { isJsonObject } from "../../../shared/jsonrpc.ts";
import type { JsonRpcId } from "../../../shared/protocol/messages.ts";
import type { SseEvent } from "../../../shared/sse.ts";

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

/** What a request's body says about it (era, method, id, subject, trace) and what its checks found. */
export function describeRequest(
  body: string,
  headers: [string, string][],
): Partial<Exchange> & { findings: Finding[] } {
  const bag = Object.fromEntries(headers);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // A GET or DELETE has no body: its MCP-Protocol-Version header alone tells the era, so a
    // 2025 session stream is checked by 2025 rules.
    return {
      era: requestEra(undefined, bag),
      findings:
        body === ""
          ? []
          : [{ level: "error", rule: "request.json", message: "The body is not JSON." }],
    };
  }
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

/** What an event that carries no MCP message is, for the frame's note. */
export function noteOf(event: SseEvent): string {
  if (event.event !== "message")
    return `An SSE "${event.event}" event, which carries no MCP message.`;
  return event.id === undefined
    ? "An empty event: it carries no message."
    : `A priming event: no message, only the id ${event.id} to resume the stream from if it drops.`;
}

/** Whether a message is the JSON-RPC response to the exchange's request. */
export function answers(message: unknown, exchange: Exchange): boolean {
  return (
    exchange.rpcId !== undefined &&
    typeof message === "object" &&
    message !== null &&
    "id" in message &&
    message.id === exchange.rpcId &&
    ("result" in message || "error" in message)
  );
}

/** A finding count for a badge: errors, then warnings. */
export function findingsOf(exchange: Exchange): Finding[] {
  return [...exchange.findings, ...exchange.frames.flatMap((f) => f.findings)];
}
