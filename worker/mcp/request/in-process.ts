import type { ClientCapabilities } from "../../../shared/protocol/capabilities.ts";
import type { JsonObject } from "../../../shared/protocol/messages.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Implementation } from "../../../shared/protocol/primitives.ts";
import { EraResponse, jsonResponse, type Outcome } from "./reply.ts";

// Calls between endpoints of one Worker (the hub's to the servers mounted beside it): how they
// are marked, and how they skip HTTP. In both, an object of this isolate is the proof: `ctx.props`
// or a header would not do, since another Worker's service binding can set those, but no request
// or binding can hand over an object of this isolate.

/**
 * What a Worker's `fetch` gets besides the request. A context made by `markInProcess` marks a
 * call from another endpoint of the same Worker (the hub's), whose caller that endpoint checked.
 */
export type WorkerContext = {
  waitUntil(promise: Promise<unknown>): void;
  props?: unknown;
};

/**
 * The execution contexts of calls made in-process by an endpoint of this Worker, with their
 * marks: how a call from another endpoint of this Worker is marked, if it is one.
 */
export const inProcessMarks = new WeakMap<object, "call" | "catalog">();

/**
 * Marks an execution context for calls an endpoint of this Worker makes in-process (the hub's
 * calls to servers mounted beside it): `"call"` for calls made for its caller, whose request it
 * checked and counted (the server neither counts them again nor checks a token's audience again:
 * it was the hub's), `"catalog"` for its own listing client, which may list everything and
 * nothing else. Returns the context.
 */
export function markInProcess<T extends object>(ctx: T, mark: "call" | "catalog"): T {
  inProcessMarks.set(ctx, mark);
  return ctx;
}

/** One JSON-RPC message for an endpoint, given in this isolate with a POST's headers. */
export type InProcessCall = {
  url: string;
  message: unknown;
  headers: Headers;
  signal: AbortSignal;
};

/**
 * One request a proxy of this isolate hands straight to an endpoint's method table, as a 2026
 * request: what its `_meta` would declare given as values (none of it is parsed again), no
 * routing headers (they would only repeat the method and name), and the headers a client would
 * authenticate with. The endpoint still authenticates its caller and applies its access rules.
 */
export type DirectCall = {
  /** The endpoint's URL as the proxy names it. */
  url: string;
  method: string;
  /** The params, without `_meta`. */
  params: JsonObject;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation;
  /** The level to send log messages at; none when absent. */
  logLevel?: LogLevel | undefined;
  /** Asks for progress notifications under this token. */
  progressToken?: string | number | undefined;
  /** The trace the request continues (a W3C `traceparent`; read only if something needs it). */
  traceparent?: string | undefined;
  /** The headers a client would send to authenticate (`Authorization`, or an API key header). */
  credentials: Readonly<Record<string, string>>;
  /** An anonymous caller's address, as `CF-Connecting-IP` would carry it. */
  address?: string | undefined;
  /** Aborts the call (the caller went away, or gave up). */
  signal: AbortSignal;
  /** Gets the call's notifications (progress, log messages) as they are sent. */
  notify(message: JsonObject): void;
};

/**
 * The answer to a `DirectCall`: the result (as a 2026 client reads it from the response), or
 * the JSON-RPC error, each with the HTTP status the reply would have had over HTTP.
 */
export type DirectReply =
  | { status: number; result: JsonObject; error?: undefined }
  | {
      status: number;
      error: { code: number; message: string; data?: unknown };
      result?: undefined;
    };

/** An endpoint's way in for a `DirectCall`: the handler's checks, then the method table. */
export type DirectEntry = (
  call: DirectCall,
  env: Cloudflare.Env,
  ctx: WorkerContext,
) => Promise<DirectReply>;

/**
 * A request for an authenticator: a call of this isolate gets one with its headers, no body.
 */
export function asRequest(request: Request | Omit<InProcessCall, "message">): Request {
  if (request instanceof Request) return request;
  const { url, headers, signal } = request;
  return new Request(url, { method: "POST", headers, signal });
}

/**
 * A whole reply given back in this isolate: the JSON-RPC response (an object, or its text),
 * its status (2xx) and headers. Refusals and streams come back as responses.
 */
export type InProcessReply = {
  message: string | JsonObject;
  status: number;
  headers?: Readonly<Record<string, string>> | undefined;
};

/**
 * The in-process edge: what the pipeline answered, as a caller of this isolate takes it. A whole
 * 2xx reply is its message as a value (a result as the object its era builds, so nothing is
 * serialized to be parsed again); a refusal stays the response HTTP would carry, with its status
 * and headers, as such a caller reads it anyway; a stream is a response.
 */
export function inProcessReply(answer: Response | Outcome): Response | InProcessReply {
  if (answer instanceof Response) return answer;
  if (answer.status >= 300) return jsonResponse(answer);
  const { message, status, headers } = answer;
  return { message: message instanceof EraResponse ? message.object() : message, status, headers };
}

/**
 * An endpoint's way in for a caller of the same isolate: the handler's checks after the HTTP
 * gate (its caller, access, limits), then the pipeline after framing.
 */
export type InProcessEntry = (
  call: InProcessCall,
  env: Cloudflare.Env,
  ctx: WorkerContext,
) => Promise<Response | InProcessReply>;

/** The in-process entries of this isolate's endpoints, by the handler (or app) serving them. */
const inProcessEntries = new WeakMap<object, InProcessEntry>();

/** Registers the in-process entry of the endpoint `app` serves (mcpHandler, mcpApp). */
export function registerEntry(app: object, entry: InProcessEntry): void {
  inProcessEntries.set(app, entry);
}

/**
 * The in-process entry of an endpoint made by `mcpHandler` or `mcpApp`, for a proxy of the
 * same Worker (the hub); undefined for any other fetch handler, which is called with fetch.
 */
export function inProcessEntry(app: object): InProcessEntry | undefined {
  return inProcessEntries.get(app);
}
