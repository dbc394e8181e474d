// Per-client rate limits (RATE_LIMIT, e.g. 120/60s: a burst of 120 tokens, refilled at
// 2/s), weighted by what an answer costs (docs/rate-limits.md): a time object
// costs 1, a larger answer 1 more per 16 KiB of body, and so on (answer-cost.ts).
//
//   take(clientKey, cost)    before answering: admitted while the client has a token, charged `cost`
//   charge(clientKey, cost)  after answering: the rest of the cost, known once the answer is
//
// The decision (GCRA, rate-policy.ts) is separate from where the state lives (a RateStore:
// rate-table.ts's table shared by an instance's workers; another store, such as a shared
// Redis, keeps the same one number per key). Which clients are limited at all is decided
// before: a null key is never limited (a loopback socket peer, no socket; see
// client-address.ts), so no address a header names earns that.

import { FULL, Gcra, type RateDecision, type RateLimitConfig } from "./rate-policy.ts";
import { RateTable, type RateStep, type RateStore } from "./rate-table.ts";

export { FULL, Gcra, type RateDecision, type RateLimitConfig } from "./rate-policy.ts";
export { RATE_TABLE_BYTES, RATE_TABLE_CAPACITY, RateTable, type RateStep, type RateStore } from "./rate-table.ts";

/** What the handler asks of a limit, whatever keeps its state. */
export interface RateLimit {
  readonly burst: number;
  readonly windowSeconds: number;
  /** Admits a request of `clientKey` if its bucket holds a token, charging it `cost` (>= 1); null: never limited. */
  take(clientKey: string | null, cost: number): RateDecision;
  /** Charges an admitted request `cost` more tokens (never refuses: the bucket may go into debt). */
  charge(clientKey: string | null, cost: number): RateDecision;
}

/** Seconds on CLOCK_MONOTONIC, which every process of the machine reads alike (performance.now() starts at each process's own start). */
const MONOTONIC_OFFSET = Number(process.hrtime.bigint()) / 1e9 - performance.now() / 1000;
export const monotonicSeconds = () => performance.now() / 1000 + MONOTONIC_OFFSET;

const TAKE = 0;
const CHARGE = 1;

export class RateLimiter implements RateLimit, RateStep {
  readonly burst: number;
  readonly windowSeconds: number;
  private readonly gcra: Gcra;
  private readonly decision: RateDecision = { allowed: true, limited: false, remaining: 0, resetSeconds: 0 };
  // The call being made, read by next() inside the store's atomic update (no closure per request).
  private mode = TAKE;
  private cost = 1;
  private allowed = true;

  /** `store`: a RateTable on `memory` by default (shared memory: one limit for every process that maps it). */
  constructor(
    config: RateLimitConfig,
    memory?: ArrayBuffer,
    private readonly now: () => number = monotonicSeconds,
    private readonly store: RateStore = new RateTable(memory),
  ) {
    this.burst = config.burst;
    this.windowSeconds = config.windowSeconds;
    this.gcra = new Gcra(config.burst, config.windowSeconds);
  }

  next(tat: number, now: number): number {
    if (this.mode === CHARGE) return this.gcra.charge(tat, now, this.cost);
    this.allowed = tat === FULL || this.gcra.admits(tat, now);
    return this.allowed ? this.gcra.charge(tat, now, this.cost) : tat;
  }

  take(clientKey: string | null, cost: number): RateDecision {
    return this.apply(clientKey, TAKE, cost);
  }

  charge(clientKey: string | null, cost: number): RateDecision {
    return this.apply(clientKey, CHARGE, cost);
  }

  private apply(clientKey: string | null, mode: number, cost: number): RateDecision {
    const d = this.decision;
    if (clientKey === null) {
      d.allowed = true;
      d.limited = false;
      d.remaining = this.burst;
      d.resetSeconds = 0;
      return d;
    }
    const now = this.now();
    this.mode = mode;
    this.cost = cost;
    this.allowed = true;
    const tat = this.store.update(clientKey, now, this);
    return this.gcra.describe(d, tat, now, this.allowed);
  }
}
