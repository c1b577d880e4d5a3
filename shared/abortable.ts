/**
 * Settles with `promise`, or rejects with the signal's reason as soon as `signal` aborts, even
 * when the work behind the promise ignores the signal (a fetch that never answers).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A controller the caller's signal aborts (at once when it already has): the work owns it and
 * may abort it alone. `unlink` stops the forwarding once the work is over, so a long-lived
 * signal does not collect listeners.
 */
export function linkedController(signal: AbortSignal | undefined): {
  controller: AbortController;
  unlink: () => void;
} {
  const controller = new AbortController();
  if (!signal) return { controller, unlink: () => {} };
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  signal.addEventListener("abort", forward, { once: true });
  return { controller, unlink: () => signal.removeEventListener("abort", forward) };
}
