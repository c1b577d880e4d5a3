/** Labels of aborted `test_slow_counter` calls remembered; past it the oldest is forgotten. */
export const ABORTS_REMEMBERED = 256;

// Which calls of test_slow_counter were aborted, by label. Diagnostic only: it lets tests see
// that closing a stream reached the handler; isolate memory is fine for that, not for state.
// Labels are chosen by anonymous callers, so the table is bounded.
const aborted = new Map<string, { step: number; at: number }>();

/** Notes that the call labelled `label` was aborted at `step`. */
export function recordAbort(label: string, step: number): void {
  aborted.delete(label);
  aborted.set(label, { step, at: Date.now() });
  if (aborted.size > ABORTS_REMEMBERED) aborted.delete(aborted.keys().next().value as string);
}

/** Forgets an abort of `label` (a new call with it starts). */
export function clearAbort(label: string): void {
  aborted.delete(label);
}

/** The abort last noted for `label`, if remembered. */
export function abortOf(label: string): { step: number; at: number } | undefined {
  return aborted.get(label);
}
