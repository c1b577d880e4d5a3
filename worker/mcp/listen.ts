import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { requireCapabilities, TASKS_REQUIRED } from "./required-capabilities.ts";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import type { JsonRpcId, JsonRpcRequest } from "../../shared/protocol/messages.ts";
import type { ListenBus } from "../durable/listen-bus.ts";
import { ListenFilterSchema, type ListenFilter } from "../../shared/protocol/notifications.ts";
import { SSE_HEADERS } from "./sse-writer.ts";
import type { RequestInfo } from "./context.ts";
import { TASKS_EXTENSION } from "../../shared/protocol/tasks.ts";

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

/** Reads and checks a listen request's filter, and keeps the part this server can honour. */
export function listenFilterOf(
  message: JsonRpcRequest,
  info: RequestInfo,
  capabilities: ServerCapabilities,
): ListenFilter {
  const parsed = ListenFilterSchema.safeParse(message.params?.notifications);
  if (!parsed.success) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'subscriptions/listen needs params.notifications, e.g. {"toolsListChanged": true}.',
    );
  }
  if (parsed.data.taskIds)
    requireCapabilities(TASKS_REQUIRED, info.clientCapabilities, "Listening to taskIds");
  return honouredFilter(
    parsed.data,
    capabilities,
    Boolean(capabilities.extensions?.[TASKS_EXTENSION]),
  );
}

/** How long a listen stream stays open, and how often it sends keep-alives. */
export type ListenSettings = { keepAliveMs: number; maxMs: number };

/**
 * A listen stream held in the server's ListenBus Durable Object, so events published by any
 * instance reach it. Closing the response unsubscribes.
 */
export async function openBusListen(
  id: JsonRpcId,
  filter: ListenFilter,
  bus: DurableObjectStub<ListenBus>,
  settings: ListenSettings,
): Promise<Response> {
  const response = await bus.fetch("https://bus/listen", {
    method: "POST",
    body: JSON.stringify({ id, filter, keepAliveMs: settings.keepAliveMs, maxMs: settings.maxMs }),
  });
  return new Response(response.body, { headers: SSE_HEADERS });
}
