import type { PatternAnswer, PatternJob } from "./pattern-match.ts";

/**
 * What is known of a value against a pattern: it matches or not, the pattern is no regex, the
 * test ran past its time (and was stopped), or the answer is still to come.
 */
export type PatternVerdict = "match" | "mismatch" | "invalid" | "slow" | "pending";

/** A thread that tests patterns: a Web Worker in the page (tests may give another). */
export type PatternThread = {
  postMessage(job: PatternJob): void;
  terminate(): void;
  onmessage: ((event: { data: PatternAnswer }) => void) | null;
};

/** How long one test may run before its thread is ended and the value left unchecked. */
export const PATTERN_BUDGET_MS = 1000;
// How long a thread may take to begin a test: a fresh one loads its script first, which on a
// busy machine can take longer than a test may run. A thread that never begins is ended too.
const START_BUDGET_MS = 15_000;
// Answers kept, and tests waiting: a page's forms hold far fewer values than this.
const MAX_VERDICTS = 2000;
const MAX_WAITING = 500;

/**
 * A server's `pattern` is tested off the page's thread, one test at a time with a time limit:
 * a pattern that backtracks without end (`^(a+)+$` against a long near-miss) would otherwise
 * freeze the tab, and a regex cannot be interrupted once it runs. Answers are kept per pattern
 * and value, so validating again is synchronous; `onVerdicts` hears when new ones arrive.
 */
class PatternChecks {
  readonly #verdicts = new Map<string, Exclude<PatternVerdict, "pending">>();
  #waiting: { key: string; pattern: string; text: string }[] = [];
  readonly #listeners = new Set<() => void>();
  #thread: PatternThread | undefined;
  #running: { id: number; key: string; timer: ReturnType<typeof setTimeout> } | undefined;
  #nextId = 1;
  #announced = false;

  constructor(private make: (() => PatternThread) | undefined) {}

  threads(make: (() => PatternThread) | undefined): void {
    this.#thread?.terminate();
    this.#thread = undefined;
    this.make = make;
  }

  verdict(pattern: string, text: string): PatternVerdict {
    const key = `${pattern}\u0000${text}`;
    const known = this.#verdicts.get(key);
    if (known) return known;
    if (!this.make) return "pending";
    const queued = this.#running?.key === key || this.#waiting.some((job) => job.key === key);
    if (!queued) {
      // The newest value is the one on screen: it is tested first, the oldest dropped.
      this.#waiting.push({ key, pattern, text });
      if (this.#waiting.length > MAX_WAITING) this.#waiting.shift();
      this.#next();
    }
    return "pending";
  }

  get idle(): boolean {
    return !this.#running && this.#waiting.length === 0;
  }

  onVerdicts(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #next(): void {
    if (this.#running || !this.make) return;
    const job = this.#waiting.pop();
    if (!job) return;
    const thread = (this.#thread ??= this.make());
    const id = this.#nextId++;
    thread.onmessage = ({ data }) => {
      const running = this.#running;
      if (running?.id !== data.id) return;
      if ("started" in data) {
        clearTimeout(running.timer);
        running.timer = this.#stopAfter(PATTERN_BUDGET_MS);
        return;
      }
      this.#settle("invalid" in data ? "invalid" : data.matched ? "match" : "mismatch");
    };
    this.#running = { id, key: job.key, timer: this.#stopAfter(START_BUDGET_MS) };
    thread.postMessage({ id, pattern: job.pattern, text: job.text });
  }

  #stopAfter(ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      // The only way to stop a regex: end its thread. The next test starts a fresh one.
      this.#thread?.terminate();
      this.#thread = undefined;
      this.#settle("slow");
    }, ms);
  }

  #settle(verdict: Exclude<PatternVerdict, "pending">): void {
    const running = this.#running;
    if (!running) return;
    clearTimeout(running.timer);
    this.#running = undefined;
    if (this.#verdicts.size >= MAX_VERDICTS) {
      const oldest = this.#verdicts.keys().next().value;
      if (oldest !== undefined) this.#verdicts.delete(oldest);
    }
    this.#verdicts.set(running.key, verdict);
    this.#announce();
    this.#next();
  }

  // Many answers in a row (a form's worth) are announced once.
  #announce(): void {
    if (this.#announced) return;
    this.#announced = true;
    setTimeout(() => {
      this.#announced = false;
      for (const listener of this.#listeners) listener();
    }, 0);
  }
}

function browserThread(): PatternThread {
  return new Worker(new URL("./pattern-worker.ts", import.meta.url), {
    type: "module",
  }) as unknown as PatternThread;
}

const checks = new PatternChecks(typeof Worker === "function" ? browserThread : undefined);

/** What is known of `text` against `pattern`; "pending" starts its test when none is under way. */
export const patternVerdict = (pattern: string, text: string): PatternVerdict =>
  checks.verdict(pattern, text);

/** Calls `listener` when tests have finished (validate again to see their verdicts). */
export const onPatternVerdicts = (listener: () => void): (() => void) =>
  checks.onVerdicts(listener);

/** Whether no test is running or waiting. */
export const patternsIdle = (): boolean => checks.idle;

/** Where patterns are tested: a Web Worker in a browser; Node tests pass a worker thread. */
export const usePatternThreads = (make: (() => PatternThread) | undefined): void =>
  checks.threads(make);
