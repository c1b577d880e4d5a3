import { signal } from "@preact/signals";
import type { BackgroundState, ServerNotification } from "../../../shared/client/index.ts";
import { LegacyTaskSchema, taskOfLegacy } from "../../../shared/protocol/legacy-tasks.ts";
import {
  ListenNotificationSchema,
  LogMessageParamsSchema,
} from "../../../shared/protocol/notifications.ts";
import { loadCatalog } from "./catalog.ts";
import { arrivals, SESSION_STREAM } from "./listen.ts";
import { addLog } from "./logs.ts";
import { session } from "./store.ts";
import { followTaskId } from "./tasks.ts";

/** The 2025 session's background stream, as the client last reported it. */
export const backgroundState = signal<BackgroundState | undefined>(undefined);
/** The resources this session subscribed to (2025 `resources/subscribe`). */
export const subscribedUris = signal<string[]>([]);

/** Forgets the last session's stream and subscriptions. */
export function resetBackground(): void {
  backgroundState.value = undefined;
  subscribedUris.value = [];
}

/**
 * Shows what a 2025 server sent on its background stream where a 2026 listen stream's news
 * goes: log messages in the Logs pane, list changes and resource updates in the Listen pane
 * (a list change reloads the catalog), task statuses in the Tasks pane.
 */
export function showBackgroundNotification(notification: ServerNotification): void {
  if (notification.method === "notifications/message") {
    const log = LogMessageParamsSchema.safeParse(notification.params);
    if (log.success) addLog("session stream", log.data);
    return;
  }
  if (notification.method === "notifications/tasks/status") {
    const task = LegacyTaskSchema.safeParse(notification.params);
    if (task.success) followTaskId(task.data.taskId, taskOfLegacy(task.data));
    return;
  }
  const listen = ListenNotificationSchema.safeParse(notification);
  if (!listen.success) return;
  arrivals.value = [
    { at: Date.now(), stream: SESSION_STREAM, notification: listen.data },
    ...arrivals.value,
  ].slice(0, 300);
  if (listen.data.method.endsWith("/list_changed") && session.value) void loadCatalog("use");
}

/** Subscribes to (or unsubscribes from) a resource's updates on a 2025 server. */
export async function toggleSubscription(uri: string): Promise<void> {
  const client = session.value?.client;
  if (!client) return;
  const subscribed = subscribedUris.value.includes(uri);
  if (subscribed) await client.unsubscribeResource(uri);
  else await client.subscribeResource(uri);
  subscribedUris.value = subscribed
    ? subscribedUris.value.filter((u) => u !== uri)
    : [...subscribedUris.value, uri];
}
