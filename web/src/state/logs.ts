import { signal } from "@preact/signals";
import type { LogMessageParams } from "../../../shared/client/index.ts";

/** A server log message and the request it came with. */
export type LogEntry = { at: number; source: string; message: LogMessageParams };

export const logEntries = signal<LogEntry[]>([]);

export function addLog(source: string, message: LogMessageParams): void {
  logEntries.value = [{ at: Date.now(), source, message }, ...logEntries.value].slice(0, 500);
}
