import { signal } from "@preact/signals";
import type { RequestKind } from "../lib/permalink.ts";
import { isRecord } from "../lib/json.ts";
import { load, save } from "./persist.ts";

/** A request as history keeps it: enough to send it again. */
export type HistoryEntry = {
  id: string;
  at: number;
  url: string;
  kind: RequestKind;
  name: string;
  args: unknown;
  status: string;
  durationMs: number;
  summary: string;
};

/** A request the user named and saved. */
export type SavedRequest = {
  id: string;
  label: string;
  url: string;
  kind: RequestKind;
  name: string;
  args: unknown;
};

const HISTORY = "edgemcp.history";
const SAVED = "edgemcp.saved";
const MAX_HISTORY = 200;
const isList = (v: unknown): v is never[] =>
  Array.isArray(v) &&
  v.every(
    (e) =>
      isRecord(e) &&
      typeof e.id === "string" &&
      typeof e.name === "string" &&
      typeof e.url === "string",
  );

export const history = signal<HistoryEntry[]>(load(HISTORY, [], isList));
export const saved = signal<SavedRequest[]>(load(SAVED, [], isList));

export function record(entry: Omit<HistoryEntry, "id">): void {
  history.value = [{ ...entry, id: crypto.randomUUID() }, ...history.value].slice(0, MAX_HISTORY);
  save(HISTORY, history.value);
}

export function clearHistory(): void {
  history.value = [];
  save(HISTORY, []);
}

export function saveRequest(request: Omit<SavedRequest, "id">): void {
  saved.value = [
    { ...request, id: crypto.randomUUID() },
    ...saved.value.filter((s) => s.label !== request.label),
  ];
  save(SAVED, saved.value);
}

export function forgetSaved(id: string): void {
  saved.value = saved.value.filter((s) => s.id !== id);
  save(SAVED, saved.value);
}

/** History and saved requests as a JSON file the user downloads. */
export function exportHistory(): void {
  const blob = new Blob(
    [
      JSON.stringify(
        { exportedAt: new Date().toISOString(), history: history.value, saved: saved.value },
        null,
        2,
      ),
    ],
    { type: "application/json" },
  );
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `edgemcp-history-${new Date().toISOString().slice(0, 10)}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
