import type { ListenFilter } from "../../shared/protocol/notifications.ts";

/** Something that happened on a server, published to its listen streams. */
export type BusEvent =
  | { kind: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" }
  | { kind: "resourceUpdated"; uri: string }
  | { kind: "task"; taskId: string; task: Record<string, unknown> };

/** True when `uri` is `subscribed` or one of its sub-resources (`notes://a` covers `notes://a/b`). */
export function coversUri(subscribed: string, uri: string): boolean {
  if (uri === subscribed) return true;
  if (!uri.startsWith(subscribed)) return false;
  return subscribed.endsWith("/") || "/#?".includes(uri.charAt(subscribed.length));
}

/** The notification a stream with `filter` receives for `event`, or undefined. */
export function notificationFor(
  filter: ListenFilter,
  event: BusEvent,
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
