import { logLevelPasses } from "../../shared/protocol/meta.ts";
import type { Caller } from "../auth/bearer.ts";
import type { Handles } from "../state/handles.ts";
import type { HandlerContext, RequestInfo } from "./context.ts";
import type { Notify } from "./reply.ts";

/**
 * Builds a handler's context. Progress goes out only with a progress token and only when it
 * increases; modern logs only at or above the requested `logLevel`, legacy logs always (the
 * level set by `logging/setLevel` cannot outlive its request).
 */
export function createContext(parts: {
  request: RequestInfo;
  env: Cloudflare.Env;
  waitUntil: (promise: Promise<unknown>) => void;
  send: Notify;
  signal: AbortSignal;
  caller: Caller | undefined;
  handles: Handles;
  input: HandlerContext["input"];
  relay: HandlerContext["relay"];
  notify: HandlerContext["notify"];
}): HandlerContext {
  let last = -Infinity;
  const { send, ...context } = parts;
  const { progressToken, logLevel, era } = context.request;
  return {
    ...context,
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
