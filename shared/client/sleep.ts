import { sleep as wait } from "../sleep.ts";
import { abortError, type ErrorContext } from "./transport.ts";

/** Waits `ms`, or fails as aborted as soon as `signal` fires. */
export async function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  context: ErrorContext,
): Promise<void> {
  try {
    await wait(ms, signal);
  } catch (error) {
    // Only an abort rejects the wait.
    throw signal ? abortError(signal, context) : error;
  }
}
