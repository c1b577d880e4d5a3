import { signal } from "@preact/signals";
import type {
  ListenFilter,
  ListenNotification,
  Subscription,
} from "../../../shared/client/index.ts";
import { loadCatalog } from "./catalog.ts";
import { session } from "./store.ts";
import { followTaskId } from "./tasks.ts";

/** An open (or ended) listen stream. */
export type ListenStream = {
  id: number;
  filter: ListenFilter;
  honoured?: ListenFilter;
  state: "opening" | "open" | "closed" | "dropped" | "failed";
  error?: string;
  subscription?: Subscription;
  openedAt: number;
};

/** A notification as it arrived, and on which stream. */
export type Arrival = { at: number; stream: number; notification: ListenNotification };

/** The stream number of a 2025 session's background stream (listen streams count from 1). */
export const SESSION_STREAM = 0;

export const streams = signal<ListenStream[]>([]);
export const arrivals = signal<Arrival[]>([]);
let nextId = 1;

function update(id: number, change: Partial<ListenStream>): void {
  streams.value = streams.value.map((s) => (s.id === id ? { ...s, ...change } : s));
}

const LIST_CHANGED = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
];

/**
 * Opens `subscriptions/listen` with a filter and shows what arrives. A `list_changed` reloads
 * the catalog (the client has already dropped the stale lists); task updates reach the tasks pane.
 */
export async function openListen(filter: ListenFilter): Promise<void> {
  const current = session.value;
  if (!current) return;
  const id = nextId++;
  streams.value = [...streams.value, { id, filter, state: "opening", openedAt: Date.now() }];
  let subscription: Subscription;
  try {
    subscription = await current.client.listen(filter);
  } catch (error) {
    update(id, { state: "failed", error: error instanceof Error ? error.message : String(error) });
    return;
  }
  update(id, { state: "open", honoured: subscription.honoured, subscription });
  void subscription.closed.then((end) =>
    update(id, { state: end === "local" ? "closed" : "dropped" }),
  );
  try {
    for await (const notification of subscription) {
      arrivals.value = [{ at: Date.now(), stream: id, notification }, ...arrivals.value].slice(
        0,
        300,
      );
      if (LIST_CHANGED.includes(notification.method) && session.value === current)
        void loadCatalog("use");
      if (notification.method === "notifications/tasks")
        followTaskId(notification.params.taskId, notification.params);
    }
  } catch (error) {
    update(id, { state: "dropped", error: error instanceof Error ? error.message : String(error) });
  }
}

export async function closeListen(id: number): Promise<void> {
  await streams.value.find((s) => s.id === id)?.subscription?.close();
}

/** Opens a new stream with an ended one's filter. */
export function reopenListen(id: number): void {
  const stream = streams.value.find((s) => s.id === id);
  if (stream) void openListen(stream.filter);
}

export function closeAllListens(): void {
  for (const s of streams.value) void s.subscription?.close();
  streams.value = [];
}
