import { signal } from "@preact/signals";
import type { CallToolResult, Task, TaskHandle } from "../../../shared/client/index.ts";
import { session } from "./store.ts";

/** A task the playground knows: its handle, last state, and how it ended. */
export type TaskEntry = {
  taskId: string;
  tool?: string;
  handle?: TaskHandle;
  task: Task;
  following: boolean;
  result?: CallToolResult;
  error?: string;
  updatedAt: number;
};

export const tasks = signal<TaskEntry[]>([]);
/** The tools the person chose to run as tasks (2025-11-25 tools that allow it), by name. */
export const runAsTask = signal<Record<string, boolean>>({});

/** Ends the following of a task whose connection is gone (thrown from its status observer). */
class Forgotten extends Error {}

/**
 * Forgets the tasks of a connection that ended (the person connected elsewhere): their polling
 * stops at its next status, without cancelling them; they run on at their server.
 */
export function forgetTasks(): void {
  tasks.value = [];
}

function update(taskId: string, change: Partial<TaskEntry>): void {
  tasks.value = tasks.value.map((t) =>
    t.taskId === taskId ? { ...t, ...change, updatedAt: Date.now() } : t,
  );
}

/** Adds a task a call became and follows it to its result (polling at the interval it asks). */
export function trackTask(handle: TaskHandle, tool: string): void {
  if (!tasks.value.some((t) => t.taskId === handle.taskId))
    tasks.value = [
      {
        taskId: handle.taskId,
        tool,
        handle,
        task: handle.task,
        following: false,
        updatedAt: Date.now(),
      },
      ...tasks.value,
    ];
  void follow(handle.taskId);
}

/** Polls a task until it ends, answering its input requests through the page's handlers. */
export async function follow(taskId: string): Promise<void> {
  const entry = tasks.value.find((t) => t.taskId === taskId);
  if (!entry?.handle || entry.following) return;
  update(taskId, { following: true });
  try {
    const result = await entry.handle.result({
      onStatus: (task) => {
        if (!tasks.value.some((t) => t.handle === entry.handle)) throw new Forgotten();
        update(taskId, { task });
      },
    });
    update(taskId, { result, following: false, task: entry.handle.task });
  } catch (error) {
    if (error instanceof Forgotten) return;
    update(taskId, {
      error: error instanceof Error ? error.message : String(error),
      following: false,
      task: entry.handle.task,
    });
  }
}

/** One `tasks/get`. */
export async function pollTask(taskId: string): Promise<void> {
  const entry = tasks.value.find((t) => t.taskId === taskId);
  if (!entry?.handle) return;
  try {
    update(taskId, { task: await entry.handle.refresh() });
  } catch (error) {
    update(taskId, { error: error instanceof Error ? error.message : String(error) });
  }
}

export async function cancelTask(taskId: string): Promise<void> {
  const entry = tasks.value.find((t) => t.taskId === taskId);
  if (!entry?.handle) return;
  try {
    await entry.handle.cancel();
    await pollTask(taskId);
  } catch (error) {
    update(taskId, { error: error instanceof Error ? error.message : String(error) });
  }
}

/** A task known only by id (from a listen stream, or typed in): fetched and followed. */
export async function openTask(taskId: string): Promise<void> {
  const client = session.value?.client;
  if (!client) return;
  try {
    const handle = await client.task(taskId);
    if (!tasks.value.some((t) => t.taskId === taskId))
      tasks.value = [
        { taskId, handle, task: handle.task, following: false, updatedAt: Date.now() },
        ...tasks.value,
      ];
    else update(taskId, { handle, task: handle.task });
  } catch (error) {
    tasks.value = [
      {
        taskId,
        task: { taskId, status: "failed" },
        following: false,
        error: error instanceof Error ? error.message : String(error),
        updatedAt: Date.now(),
      },
      ...tasks.value.filter((t) => t.taskId !== taskId),
    ];
  }
}

/** A pushed task state (listen `notifications/tasks`) updates a known task. */
export function followTaskId(taskId: string, task: Task): void {
  if (tasks.value.some((t) => t.taskId === taskId)) update(taskId, { task });
}
