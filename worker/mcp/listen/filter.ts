import { TASKS_EXTENSION, type ServerCapabilities } from "../../../shared/protocol/capabilities.ts";
import { ErrorCode, RpcError } from "../../../shared/protocol/errors.ts";
import { ListenFilterSchema, type ListenFilter } from "../../../shared/protocol/params.ts";
import type { RequestInfo, ListenEvent } from "../context/context.ts";
import { requireCapabilities, TASKS_REQUIRED } from "../input/requirements.ts";

/** The part of a listen filter a server can honour, given what it advertises. */
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
  params: Record<string, unknown>,
  info: RequestInfo,
  capabilities: ServerCapabilities,
): ListenFilter {
  const parsed = ListenFilterSchema.safeParse(params.notifications);
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

/** True when `uri` is `subscribed` or one of its sub-resources (`notes://a` covers `notes://a/b`). */
function coversUri(subscribed: string, uri: string): boolean {
  if (uri === subscribed) return true;
  if (!uri.startsWith(subscribed)) return false;
  return subscribed.endsWith("/") || "/#?".includes(uri.charAt(subscribed.length));
}

/** The notification a stream with `filter` receives for `event`, or undefined. */
export function notificationFor(
  filter: ListenFilter,
  event: ListenEvent,
): { method: string; params: Record<string, unknown> } | undefined {
  switch (event.kind) {
    case "toolsListChanged":
      return filter.toolsListChanged
        ? { method: "notifications/tools/list_changed", params: {} }
        : undefined;
    case "promptsListChanged":
      return filter.promptsListChanged
        ? { method: "notifications/prompts/list_changed", params: {} }
        : undefined;
    case "resourcesListChanged":
      return filter.resourcesListChanged
        ? { method: "notifications/resources/list_changed", params: {} }
        : undefined;
    case "resourceUpdated":
      return filter.resourceSubscriptions?.some((s) => coversUri(s, event.uri))
        ? { method: "notifications/resources/updated", params: { uri: event.uri } }
        : undefined;
    case "task":
      return filter.taskIds?.includes(event.taskId)
        ? { method: "notifications/tasks", params: { ...event.task } }
        : undefined;
  }
}
