import { logLevelPasses } from "../../shared/protocol/meta.ts";
import type { HandlerContext, RequestInfo } from "./context.ts";
import type { Notify } from "./reply.ts";

/**
 * Builds a handler's context. Progress goes out only with a progress token and only when it
 * increases; modern logs only at or above the requested `logLevel`, legacy logs always (the
 * level set by `logging/setLevel` cannot outlive its request).
 */
export function createContext(
  request: RequestInfo,
  env: Cloudflare.Env,
  waitUntil: (promise: Promise<unknown>) => void,
  notify: Notify,
  signal: AbortSignal,
): HandlerContext {
  let last = -Infinity;
  const { progressToken, logLevel } = request;
  return {
    env,
    signal,
    request,
    waitUntil,
    progress(progress, total, message) {
      if (progressToken === undefined || !(progress > last)) return;
      last = progress;
      notify({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: {
          progressToken,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    },
    log(level, data, logger) {
      if (request.era === "modern" && (logLevel === undefined || !logLevelPasses(level, logLevel)))
        return;
      notify({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level, ...(logger === undefined ? {} : { logger }), data },
      });
    },
  };
}
