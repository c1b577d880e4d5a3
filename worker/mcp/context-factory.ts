import { logLevelPasses } from "../../shared/protocol/meta.ts";
import type { Caller } from "../auth/bearer.ts";
import type { ListenBus } from "../durable/listen-bus.ts";
import { Handles } from "../state/handles.ts";
import type { Sealer } from "../state/sealer.ts";
import type { HandlerContext, RequestInfo } from "./context.ts";
import { notifierFor } from "./notifier.ts";
import type { Notify } from "./reply.ts";

/**
 * Builds a handler's context: handles sealed for the caller, a notifier for the server's listen
 * streams, and the request's notification channel. Progress goes out only with a progress token
 * and only when it increases; modern logs only at or above the requested `logLevel`, legacy logs
 * always (the level set by `logging/setLevel` cannot outlive its request).
 */
export function createContext(parts: {
  request: RequestInfo;
  env: Cloudflare.Env;
  waitUntil: (promise: Promise<unknown>) => void;
  send: Notify;
  signal: AbortSignal;
  caller: Caller | undefined;
  sealer: Sealer;
  /** The server's name, and its listen bus when there is one (for `ctx.notify`). */
  server: string;
  bus: DurableObjectNamespace<ListenBus> | undefined;
  input: HandlerContext["input"];
  relay: HandlerContext["relay"];
}): HandlerContext {
  let last = -Infinity;
  const { request, env, waitUntil, send, signal, caller, input, relay } = parts;
  const { progressToken, logLevel, era } = request;
  return {
    request,
    env,
    waitUntil,
    signal,
    caller,
    handles: new Handles(parts.sealer, caller?.subject ?? ""),
    input,
    relay,
    notify: notifierFor(parts.bus, parts.server),
    progress(progress, total, message) {
      if (progressToken === undefined || !(progress > last)) return;
      last = progress;
      const params = {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      };
      send({ jsonrpc: "2.0", method: "notifications/progress", params });
    },
    log(level, data, logger) {
      if (era === "modern" && (logLevel === undefined || !logLevelPasses(level, logLevel))) return;
      const params = { level, ...(logger === undefined ? {} : { logger }), data };
      send({ jsonrpc: "2.0", method: "notifications/message", params });
    },
  };
}
