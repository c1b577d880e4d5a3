import { ErrorCode, RpcError } from "../../shared/protocol/errors.ts";
import { requireCapabilities, TASKS_REQUIRED } from "./required-capabilities.ts";
import type { ServerCapabilities } from "../../shared/protocol/capabilities.ts";
import type { JsonObject, JsonRpcId, JsonRpcRequest } from "../../shared/jsonrpc.ts";
import type { ListenBus } from "../durable/listen-bus.ts";
import { listenMessages } from "../durable/listen-messages.ts";
import { ListenFilterSchema, type ListenFilter } from "../../shared/protocol/notifications.ts";
import { SSE_HEADERS, SseWriter } from "./sse-writer.ts";
import type { HandlerContext, RequestInfo } from "./context.ts";
import type { ListenSource } from "./define.ts";
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

type Settings = { keepAliveMs: number; maxMs: number };

/**
 * A listen stream held in the server's ListenBus Durable Object, so events published by any
 * instance reach it. Closing the response unsubscribes.
 */
export async function openBusListen(
  id: JsonRpcId,
  filter: ListenFilter,
  bus: DurableObjectStub<ListenBus>,
  settings: Settings,
): Promise<Response> {
  const response = await bus.fetch("https://bus/listen", {
    method: "POST",
    body: JSON.stringify({ id, filter, keepAliveMs: settings.keepAliveMs, maxMs: settings.maxMs }),
  });
  return new Response(response.body, { headers: SSE_HEADERS });
}

/**
 * A listen stream fed by the server's own source (the hub relaying its upstreams): the
 * acknowledgement first, then what the source emits, tagged with the subscription id. The
 * stream ends gracefully when the source is done or after `maxMs`; the client closing it
 * aborts the source.
 */
export function openSourceListen(
  id: JsonRpcId,
  filter: ListenFilter,
  source: ListenSource,
  context: (signal: AbortSignal) => HandlerContext,
  settings: Settings,
): Response {
  const stop = new AbortController();
  let clientGone = false;
  const writer = new SseWriter(settings.keepAliveMs, () => {
    clientGone = true;
    stop.abort(new Error("The client closed the listen stream."));
  });
  const messages = listenMessages(id);
  writer.send(messages.acknowledged(filter));
  const timer = setTimeout(
    () => stop.abort(new Error("The listen stream reached its time limit.")),
    settings.maxMs,
  );
  const emit = (notification: { method: string; params?: JsonObject }) => {
    if (!stop.signal.aborted) writer.send(messages.notification(notification));
  };
  void source(filter, context(stop.signal), emit)
    .catch((error: unknown) => console.error("A listen source failed", error))
    .finally(() => {
      clearTimeout(timer);
      if (!clientGone) writer.send(messages.complete());
      writer.close();
    });
  return new Response(writer.readable, { headers: SSE_HEADERS });
}
