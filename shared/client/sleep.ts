import { abortError, type ErrorContext } from "./transport.ts";

/** Waits `ms`, or fails as aborted as soon as `signal` fires. */
export function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  context: ErrorContext,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal, context));
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortError(signal, context));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
