import { Exit, println, type Io } from "./io.ts";

/** How a call ended early: what to tell the person, and the exit code. */
export type Stopped = { text: string; code: number };

/** A duration in seconds for people: 1500 ms is "1.5 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * What may stop a call before its result: Ctrl-C, or `--timeout`. Either aborts `signal`, and
 * the client then cancels the call the way its era does (closing the 2026 stream, a 2025
 * `notifications/cancelled`, `tasks/cancel` for a task); `stopped()` then says so in words.
 */
export class CallStop {
  readonly signal: AbortSignal;
  /** The task the call runs as, once the server said so. */
  taskId: string | undefined;
  private readonly interrupt = new AbortController();
  private readonly timeout: AbortSignal | undefined;
  private readonly unwatch: () => void;

  constructor(
    io: Io,
    private readonly timeoutMs: number | undefined,
  ) {
    this.timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    this.signal = this.timeout
      ? AbortSignal.any([this.interrupt.signal, this.timeout])
      : this.interrupt.signal;
    this.unwatch =
      io.onInterrupt?.(() => {
        println(io.stderr, "Cancelling the call… (Ctrl-C again quits at once)");
        this.interrupt.abort();
      }) ?? (() => {});
  }

  /** Why the call stopped early, when Ctrl-C or the timeout stopped it. */
  stopped(): Stopped | undefined {
    const task = this.taskId === undefined ? "" : ` (task ${this.taskId})`;
    if (this.interrupt.signal.aborted) {
      return {
        text: `Interrupted: the server was told to cancel the call${task}.`,
        code: Exit.interrupted,
      };
    }
    if (this.timeout?.aborted && this.timeoutMs !== undefined) {
      const cancelled =
        this.taskId === undefined
          ? "the server was told to cancel it"
          : `it ran as task ${this.taskId}, which the server was told to cancel`;
      return {
        text: `The call did not finish within ${seconds(this.timeoutMs)} (--timeout): ${cancelled}.`,
        code: Exit.failed,
      };
    }
    return undefined;
  }

  /** Ctrl-C ends the process again. */
  dispose(): void {
    this.unwatch();
  }
}
