import type { LogLevel } from "../../../shared/protocol/meta.ts";
import type { Caller } from "../../auth/bearer.ts";
import type { Handles } from "./handles.ts";
import { addressKey } from "./address.ts";
import type {
  Asking,
  Cancel,
  ChangeNotifier,
  HandlerContext,
  Notify,
  RequestInfo,
} from "./context.ts";

/**
 * Builds a handler's context around the request's notification channel. Progress goes out only
 * with a progress token and only when it increases; log messages only when `logs` lets their
 * level through (the era decides).
 */
export function createContext(parts: ContextParts): HandlerContext {
  return new CallContext(parts);
}

type ContextParts = {
  request: RequestInfo;
  env: Cloudflare.Env;
  waitUntil: (promise: Promise<unknown>) => void;
  send: Notify;
  /** Where `ctx.signal` comes from, read when the handler first reads it. */
  cancel: Cancel;
  caller: Caller | undefined;
  /** The request's headers, when the context is for a request (a task's run is not). */
  headers?: Headers;
  handles: Handles;
  notify: ChangeNotifier;
  asking: Asking;
  logs: (level: LogLevel) => boolean;
};

/**
 * A handler's context. A class, so that `signal` is a getter of its prototype: a getter in an
 * object literal makes V8 build every such object as a slow dictionary (creating and spreading
 * one costs about a hundred times a plain one). Everything else is an own property, so a
 * handler may take the context apart (`const { progress, signal } = ctx`).
 */
class CallContext implements HandlerContext {
  readonly request: RequestInfo;
  readonly env: Cloudflare.Env;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  readonly caller: Caller | undefined;
  readonly handles: Handles;
  readonly input: HandlerContext["input"];
  readonly relay: HandlerContext["relay"];
  readonly notify: ChangeNotifier;
  readonly progress: HandlerContext["progress"];
  readonly log: HandlerContext["log"];
  readonly #cancel: Cancel;
  readonly #headers: Headers | undefined;

  /** See `anonymousAddress`. */
  static anonymousAddress(ctx: HandlerContext): string | undefined {
    if (!(ctx instanceof CallContext) || ctx.caller) return undefined;
    const address = ctx.#headers?.get("CF-Connecting-IP");
    return address ? addressKey(address) : undefined;
  }

  constructor(parts: ContextParts) {
    const { request, send, logs } = parts;
    const { progressToken } = request;
    this.request = request;
    this.env = parts.env;
    this.waitUntil = parts.waitUntil;
    this.caller = parts.caller;
    this.handles = parts.handles;
    this.input = parts.asking.input;
    this.relay = parts.asking.relay;
    this.notify = parts.notify;
    this.#cancel = parts.cancel;
    this.#headers = parts.headers;
    let last = -Infinity;
    // Assigned here rather than as arrow properties, which name-keeping bundlers rename per call.
    this.progress = (progress, total, message) => {
      if (progressToken === undefined || !(progress > last)) return;
      last = progress;
      const params = {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      };
      send({ jsonrpc: "2.0", method: "notifications/progress", params });
    };
    this.log = (level, data, logger) => {
      if (!logs(level)) return;
      const params = { level, ...(logger === undefined ? {} : { logger }), data };
      send({ jsonrpc: "2.0", method: "notifications/message", params });
    };
  }

  get signal(): AbortSignal {
    return this.#cancel.signal;
  }
}

/**
 * Where an anonymous caller of this request called from, as its limits count it (an IPv6
 * address by its /64): what a proxy of this Worker (the hub) passes on to the servers it calls
 * in-process, so that they count each of its anonymous callers apart. Undefined for a caller
 * with a token, a request without an address, or a context not made for a request.
 */
export const anonymousAddress = (ctx: HandlerContext): string | undefined =>
  CallContext.anonymousAddress(ctx);
