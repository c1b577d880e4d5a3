import { abortable } from "../../shared/abortable.ts";
import { namespaceKeys, upstreamKeys } from "../../shared/hub/input-keys.ts";
import { prefixed, type Naming } from "../../shared/hub/names.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { isJsonObject } from "../../shared/jsonrpc.ts";
import type { JsonObject } from "../../shared/protocol/messages.ts";
import type { HandlerContext, TaskRouter } from "../mcp/index.ts";
import { idleTimeout } from "./forward.ts";
import { fromUpstream } from "./provenance.ts";
import { withUpstream, type HubRuntime } from "./runtime.ts";

/** An upstream's task (or task creation) as the hub's client sees it: under the hub's names. */
export function asHubTask(upstream: string, result: JsonObject, naming: Naming): JsonObject {
  const renamed: JsonObject = fromUpstream(result, upstream);
  if (typeof result.taskId === "string") renamed.taskId = prefixed(upstream, result.taskId, naming);
  if (isJsonObject(result.inputRequests))
    renamed.inputRequests = namespaceKeys(upstream, result.inputRequests, naming);
  return renamed;
}

/**
 * Tasks of upstream servers, as the hub's client knows them: ids `<upstream><sep><id>`, input
 * request keys namespaced the same way; every tasks/* request goes to the owning upstream.
 */
export function hubTaskRouter(runtime: HubRuntime): TaskRouter {
  const { hub } = runtime;
  const naming = hub.naming;
  const routeOf = (taskId: string) => {
    const route = hub.route(taskId);
    if (!route)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown task "${taskId}": it names no upstream of this hub.`,
        { taskId },
      );
    return route;
  };
  const send = async (
    method: string,
    { upstream, original }: { upstream: string; original: string },
    extra: JsonObject,
    ctx: HandlerContext,
  ): Promise<JsonObject> => {
    const result = await withUpstream(runtime, upstream, ctx, false, async (client) => {
      // An upstream that never answers fails the request after the hub's idle timeout.
      const idle = idleTimeout(runtime.idleMs, ctx.signal);
      try {
        const params = { taskId: original, ...extra };
        return await abortable(
          client.request(method, params, { signal: idle.signal }),
          idle.signal,
        );
      } finally {
        idle.stop();
      }
    });
    return asHubTask(upstream, result, naming);
  };
  return {
    get: async (taskId, ctx) => send("tasks/get", routeOf(taskId), {}, ctx),
    update: async (taskId, responses, ctx) => {
      const route = routeOf(taskId);
      const inputResponses = upstreamKeys(route.upstream, responses, naming);
      return send("tasks/update", route, { inputResponses }, ctx);
    },
    cancel: async (taskId, ctx) => send("tasks/cancel", routeOf(taskId), {}, ctx),
  };
}
