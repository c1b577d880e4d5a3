import { namespaceKeys, upstreamKeys } from "../../shared/hub/input-keys.ts";
import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { isJsonObject, type JsonObject } from "../../shared/jsonrpc.ts";
import type { TaskRouter } from "../mcp/define.ts";
import type { HandlerContext } from "../mcp/context.ts";
import { withUpstream, type HubRuntime } from "./runtime.ts";

/**
 * Tasks of upstream servers, as the hub's client knows them: ids `<upstream><sep><id>`, input
 * request keys namespaced the same way; every tasks/* request goes to the owning upstream.
 */
export function hubTaskRouter(runtime: HubRuntime): TaskRouter {
  const { hub } = runtime;
  const naming = hub.naming;
  const send = async (
    method: string,
    taskId: string,
    extra: JsonObject,
    ctx: HandlerContext,
  ): Promise<JsonObject> => {
    const route = hub.route(taskId);
    if (!route)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown task "${taskId}": it names no upstream of this hub.`,
        { taskId },
      );
    const { upstream, original } = route;
    const result = await withUpstream(runtime, upstream, ctx, false, (client) =>
      client.request(method, { taskId: original, ...extra }, { signal: ctx.signal }),
    );
    // The hub's client sees the task under the hub's names.
    const renamed: JsonObject = { ...result };
    if (typeof result.taskId === "string")
      renamed.taskId = `${upstream}${naming.separator}${result.taskId}`;
    if (isJsonObject(result.inputRequests))
      renamed.inputRequests = namespaceKeys(upstream, result.inputRequests, naming);
    return renamed;
  };
  return {
    get: (taskId, ctx) => send("tasks/get", taskId, {}, ctx),
    update: (taskId, responses, ctx) => {
      const upstream = hub.route(taskId)?.upstream ?? "";
      return send(
        "tasks/update",
        taskId,
        { inputResponses: upstreamKeys(upstream, responses, naming) },
        ctx,
      );
    },
    cancel: (taskId, ctx) => send("tasks/cancel", taskId, {}, ctx),
  };
}
