import { DurableObject } from "cloudflare:workers";
import type { Budget, Lease } from "../mcp/ports.ts";

/** A token bucket: `tokens` as of `at`, refilled at `limit` per window. */
type Bucket = { tokens: number; at: number };

/** Buckets kept before full ones are forgotten (a full bucket is the same as none). */
const MAX_BUCKETS = 256;

/**
 * What one caller uses, across every Worker instance: one object per caller (its subject, or
 * an anonymous caller's address). Rate budgets are token buckets kept in memory (an object
 * evicted after a quiet spell forgets them, which is what a full bucket would say anyway);
 * leases (open listen streams, live tasks) are stored, each with its expiry, so a lease whose
 * release never came frees itself.
 */
export class Limiter extends DurableObject {
  readonly #buckets = new Map<string, Bucket>();

  /**
   * Takes one unit from every budget (a `peek` budget is only checked), or none; otherwise the
   * first empty one and its wait.
   */
  async take(budgets: Budget[]): Promise<{ key: string; waitMs: number } | undefined> {
    const now = Date.now();
    const filled = budgets.map((budget) => ({ budget, tokens: this.#tokens(budget, now) }));
    for (const { budget, tokens } of filled) {
      if (tokens < 1)
        return {
          key: budget.key,
          waitMs: Math.ceil(((1 - tokens) * budget.windowMs) / budget.limit),
        };
    }
    for (const { budget, tokens } of filled)
      if (!budget.peek) this.#buckets.set(budget.key, { tokens: tokens - 1, at: now });
    if (this.#buckets.size > MAX_BUCKETS) this.#forgetFull(budgets, now);
    return undefined;
  }

  async acquire(lease: Lease): Promise<boolean> {
    const now = Date.now();
    const prefix = `lease:${lease.kind}:`;
    const held = await this.ctx.storage.list<number>({ prefix });
    let live = 0;
    const expired: string[] = [];
    for (const [key, expiresAt] of held) {
      if (expiresAt <= now) expired.push(key);
      else live++;
    }
    if (expired.length > 0) await this.ctx.storage.delete(expired);
    if (live >= lease.max) return false;
    await this.ctx.storage.put(`${prefix}${lease.id}`, now + lease.ttlMs);
    return true;
  }

  async release(kind: string, id: string): Promise<void> {
    await this.ctx.storage.delete(`lease:${kind}:${id}`);
  }

  /** Leases held now, by kind (for tests and operators). */
  async held(kind: string): Promise<number> {
    const now = Date.now();
    const leases = await this.ctx.storage.list<number>({ prefix: `lease:${kind}:` });
    return [...leases.values()].filter((expiresAt) => expiresAt > now).length;
  }

  #tokens(budget: Budget, now: number): number {
    const bucket = this.#buckets.get(budget.key);
    if (!bucket) return budget.limit;
    const refill = ((now - bucket.at) * budget.limit) / budget.windowMs;
    return Math.min(budget.limit, bucket.tokens + refill);
  }

  /** Drops buckets that have refilled (their budgets as given now, or a minute's quiet). */
  #forgetFull(budgets: Budget[], now: number): void {
    const known = new Map(budgets.map((budget) => [budget.key, budget]));
    for (const [key, bucket] of this.#buckets) {
      const budget = known.get(key);
      const full = budget ? this.#tokens(budget, now) >= budget.limit : now - bucket.at > 60_000;
      if (full) this.#buckets.delete(key);
    }
  }
}
