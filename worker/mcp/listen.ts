import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import type { JsonRpcRequest } from "../../shared/jsonrpc.ts";
import type { ListenBus } from "../durable/listen-bus.ts";
import { ListenFilterSchema, type ListenFilter } from "../durable/listen-filter.ts";
import { SSE_HEADERS } from "./sse-writer.ts";
import { TASKS_EXTENSION } from "./tasks-extension.ts";
import type { RequestInfo } from "./context.ts";

/** The part of a listen filter this server can honour, given what it advertises. */
export function honouredFilter(
  requested: ListenFilter,
  capabilities: ServerCapabilities,
  tasks: boolean,
): ListenFilter {
  const honoured: ListenFilter = {};
  if (requested.toolsListChanged && capabilities.tools?.listChanged)
    honoured.toolsListChanged = true;
  if (requested.promptsListChanged && capabilities.prompts?.listChanged)
    honoured.promptsListChanged = true;
  if (requested.resourcesListChanged && capabilities.resources?.listChanged)
    honoured.resourcesListChanged = true;
  if (requested.resourceSubscriptions && capabilities.resources?.subscribe)
    honoured.resourceSubscriptions = requested.resourceSubscriptions;
  if (requested.taskIds && tasks) honoured.taskIds = requested.taskIds;
  return honoured;
}

/**
 * Serves `subscriptions/listen`: the stream itself lives in the server's ListenBus Durable
 * Object, so events published by any instance reach it. Closing the response unsubscribes.
 */
export async function openListen(
  message: JsonRpcRequest,
  info: RequestInfo,
  capabilities: ServerCapabilities,
  bus: DurableObjectStub<ListenBus>,
  settings: { keepAliveMs: number; maxMs: number; tasks: boolean },
): Promise<Response> {
  const parsed = ListenFilterSchema.safeParse(message.params?.notifications);
  if (!parsed.success) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'subscriptions/listen needs params.notifications, e.g. {"toolsListChanged": true}.',
    );
  }
  if (parsed.data.taskIds && !info.clientCapabilities.extensions?.[TASKS_EXTENSION]) {
    throw new RpcError(
      ErrorCode.MissingRequiredClientCapability,
      `Listening to taskIds needs the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      400,
    );
  }
  const filter = honouredFilter(parsed.data, capabilities, settings.tasks);
  const response = await bus.fetch("https://bus/listen", {
    method: "POST",
    body: JSON.stringify({
      id: message.id,
      filter,
      keepAliveMs: settings.keepAliveMs,
      maxMs: settings.maxMs,
    }),
  });
  return new Response(response.body, { headers: SSE_HEADERS });
}
