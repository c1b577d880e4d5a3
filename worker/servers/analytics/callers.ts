import { ToolError } from "../../mcp/index.ts";

/**
 * What one caller may take of the analytics database. D1 runs one statement at a time per
 * database (and Miniflare's D1 runs it on the Worker's own thread), so every millisecond one
 * caller's statements take is a millisecond everyone else waits.
 */
export const CALLER_BOUNDS = {
  /** `execute_query` calls of one caller running at once; another is refused, not queued. */
  queriesInFlight: 1,
  /** Database time a caller may use a minute, as D1 reports it (`ANALYTICS_DB_MS_PER_MINUTE`). */
  dbMsPerMinute: 10_000,
  /** Refused statements remembered (per caller and statement), answered again without D1. */
  refusalsRemembered: 1_000,
  /** How long a refusal is remembered: what the cost bound reads (table sizes) changes too. */
  refusalTtlMs: 60_000,
  /** Callers whose database time is tracked; past it, full budgets and then the oldest go. */
  callersTracked: 4_096,
} as const;

/** A caller's database time: `ms` left as of `at`, refilled at the budget's rate, may go below 0. */
type Bucket = { ms: number; at: number };

/** One admitted query: charge the database time it used, then end it (once, whatever happened). */
export type Admission = { charge(ms: number): void; end(): void };

/**
 * The per-caller bounds of one Worker instance (isolate): one query in flight, a budget of
 * database time per minute answered with a retry time once spent, and refusals remembered so a
 * repeated refused statement costs no round trip. Kept in memory: a caller spreading its calls
 * over many instances gets this budget in each, and the request rates (counted across
 * instances) bound the rest.
 */
export class CallerGate {
  readonly #running = new Map<string, number>();
  readonly #buckets = new Map<string, Bucket>();
  readonly #refusals = new Map<string, { message: string; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Admits one query of `caller` within `dbMsPerMinute`, or throws the tool error it gets: the
   * refusal remembered for this statement, another query still running, or the budget spent.
   */
  admit(caller: string, statement: string | undefined, dbMsPerMinute: number): Admission {
    const remembered = statement === undefined ? undefined : this.#remembered(caller, statement);
    if (remembered !== undefined) throw new ToolError(remembered);
    const running = this.#running.get(caller) ?? 0;
    if (running >= CALLER_BOUNDS.queriesInFlight)
      throw new ToolError(
        "Another query from this caller is still running; wait for its answer before sending the next.",
      );
    const now = this.now();
    const bucket = this.#refill(caller, dbMsPerMinute, now);
    if (dbMsPerMinute > 0 && bucket.ms <= 0) {
      const seconds = Math.max(1, Math.ceil(((1 - bucket.ms) * 60_000) / dbMsPerMinute / 1000));
      throw new ToolError(
        `Too much database time from this caller: at most ${(dbMsPerMinute / 1000).toLocaleString("en-US")} s a minute. ` +
          `Retry after ${seconds} s.`,
      );
    }
    this.#running.set(caller, running + 1);
    let ended = false;
    return {
      charge: (ms) => {
        if (dbMsPerMinute <= 0 || !(ms > 0)) return;
        const current = this.#refill(caller, dbMsPerMinute, this.now());
        current.ms -= ms;
      },
      end: () => {
        if (ended) return;
        ended = true;
        const left = (this.#running.get(caller) ?? 1) - 1;
        if (left > 0) this.#running.set(caller, left);
        else this.#running.delete(caller);
      },
    };
  }

  /** Remembers that `statement` was refused for `caller`, with the message it got. */
  remember(caller: string, statement: string, message: string): void {
    const key = refusalKey(caller, statement);
    this.#refusals.delete(key);
    this.#refusals.set(key, { message, at: this.now() });
    while (this.#refusals.size > CALLER_BOUNDS.refusalsRemembered) {
      const oldest = this.#refusals.keys().next().value as string;
      this.#refusals.delete(oldest);
    }
  }

  #remembered(caller: string, statement: string): string | undefined {
    const key = refusalKey(caller, statement);
    const entry = this.#refusals.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= CALLER_BOUNDS.refusalTtlMs) {
      this.#refusals.delete(key);
      return undefined;
    }
    return entry.message;
  }

  /** The caller's bucket, refilled to `now` (created full), most recently used last. */
  #refill(caller: string, perMinute: number, now: number): Bucket {
    const bucket = this.#buckets.get(caller) ?? { ms: perMinute, at: now };
    bucket.ms = Math.min(perMinute, bucket.ms + ((now - bucket.at) * perMinute) / 60_000);
    bucket.at = now;
    this.#buckets.delete(caller);
    this.#buckets.set(caller, bucket);
    if (this.#buckets.size > CALLER_BOUNDS.callersTracked) this.#forget(caller, perMinute, now);
    return bucket;
  }

  /** Drops full budgets (the same as none), then the least recently used, to the bound. */
  #forget(keep: string, perMinute: number, now: number): void {
    for (const [caller, bucket] of this.#buckets) {
      const full = bucket.ms + ((now - bucket.at) * perMinute) / 60_000 >= perMinute;
      if (full && caller !== keep) this.#buckets.delete(caller);
    }
    for (const caller of this.#buckets.keys()) {
      if (this.#buckets.size <= CALLER_BOUNDS.callersTracked) break;
      if (caller !== keep) this.#buckets.delete(caller);
    }
  }
}

/** The statement as the guard reads it: surrounding space and a final `;` do not make another. */
const refusalKey = (caller: string, statement: string) =>
  `${caller}\n${statement.trim().replace(/;\s*$/, "").trimEnd()}`;
