import { computed, signal } from "@preact/signals";
import type { LogMessageParams } from "../../../shared/client/index.ts";
import type { LogLevel } from "../../../shared/protocol/meta.ts";

/** A server log message and the request it came with; `seq` orders it among the rows. */
export type LogEntry = { seq: number; at: number; source: string; message: LogMessageParams };

/** Where the level the playground asks for changed: the Logs pane draws it as a divider. */
export type LevelChange = { seq: number; at: number; level: LogLevel | "" };

const MAX_ROWS = 500;
let seq = 0;

/** The Logs pane's rows, newest first: messages, and the level changes between them. */
export const logRows = signal<(LogEntry | LevelChange)[]>([]);
/** How many messages the pane lists (its tab's count). */
export const logCount = computed(() => logRows.value.filter((row) => "message" in row).length);

export function addLog(source: string, message: LogMessageParams): void {
  logRows.value = [{ seq: ++seq, at: Date.now(), source, message }, ...logRows.value].slice(
    0,
    MAX_ROWS,
  );
}

/**
 * Marks a change of the asked-for level, so fewer (or more) messages after it read as the
 * level's doing. A change right after another replaces it: only the level in force counts.
 */
export function markLevel(level: LogLevel | ""): void {
  const [newest, ...older] = logRows.value;
  const rows = newest && !("message" in newest) ? older : logRows.value;
  logRows.value = [{ seq: ++seq, at: Date.now(), level }, ...rows].slice(0, MAX_ROWS);
}
