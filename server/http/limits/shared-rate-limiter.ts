// RATE_LIMIT_STORE: one bucket per client in Redis for every instance, decided by one
// atomic script per take or charge (rate-store-protocol.ts: the GCRA of rate-policy.ts)
// on a thread of its own (rate-store-thread.ts), with the instance's own limiter
// (rate-limiter.ts) standing in whenever Redis cannot answer in time.
//
// A request never waits more than its deadline (RATE_LIMIT_STORE_TIMEOUT_MS, 5 ms) for Redis. While the connection is
// down it does not wait at all; after TRIP_AFTER answers in a row miss the deadline
// (Redis alive but slow) the store is left alone for a backoff that doubles up to
// TRIP_MAX_MS, then one request tries again. Each request decided locally meanwhile is
// counted (zonetime_rate_store_fallbacks_total); an outage is logged once when it starts
// (`rate_store_unavailable`) and once when Redis decides again (`rate_store_restored`),
// A late answer or two alone are counted as fallbacks, not as an outage; an outage for
// slowness that begins within QUIET_MS of the last one's end (too slow now and then on a
// busy host) is counted but not logged again, unless it trips the store a second time (a
// Redis frozen for good is told). A lost connection is always logged, and its outage ends
// when the connection is back (not at the next limited request); a first connection that
// fails is logged with its reason (rate-store-thread.ts asks Redis why: WRONGPASS...).

import { logEvent } from "../../core/log.ts";
import { Gcra, type RateDecision, type RateLimit, type RateLimitConfig } from "./rate-limiter.ts";
import {
  bucketKey, F_COST, F_DELTA, HEADER_BYTES, keyPrefix, MAX_KEY_BYTES, SHARED_BYTES, STORE_UP, W_ALLOWED, W_ANSWER, W_KEY_LENGTH,
  W_MODE, W_OK, W_REQUEST, W_STATE, type StoreEvent,
} from "./rate-store-protocol.ts";

const TRIP_AFTER = 3;
const TRIP_FIRST_MS = 100;
const TRIP_MAX_MS = 5000;
const QUIET_MS = 10_000;

export type StoreState = "connecting" | "up" | "down" | "slow";

export interface StoreCounters {
  fallbacks: number;
  outages: number;
  /** Attempts to connect to Redis, the first included (the thread's capped, jittered backoff spaces them). */
  connectAttempts: number;
}

/** What /health shows of the store (never the URL: it may hold a password). */
export interface StoreReport {
  kind: "redis";
  state: StoreState;
  /** When the current outage began (null while Redis decides). */
  outage_since: string | null;
  fallbacks: number;
  outages: number;
}

const TAKE = 0;
const CHARGE = 1;

export class SharedRateLimiter implements RateLimit {
  readonly burst: number;
  readonly windowSeconds: number;
  private readonly local: RateLimit;
  private readonly gcra: Gcra;
  private readonly prefix: string;
  private readonly words: Int32Array;
  private readonly floats: Float64Array;
  private readonly keyBytes: Uint8Array;
  private readonly encoder = new TextEncoder();
  private readonly decision: RateDecision = { allowed: true, limited: true, remaining: 0, resetSeconds: 0 };
  private readonly thread: Worker;
  private readonly deadlineMs: number;
  readonly counters: StoreCounters;
  private everUp = false;
  private connectionUp = false;
  private misses = 0;
  private tripMs = TRIP_FIRST_MS;
  private trippedUntil = 0;
  /** Set while requests are decided locally; logged once when it starts and once when it ends. */
  private outage: { since: number; reason: string; fallbacks: number; logged: boolean; slow: boolean } | null = null;
  private lastRestored = -Infinity;
  /** The last reason told while never connected. */
  private toldReason = "";

  /** `counters`: where fallbacks and outages are counted (the process's metrics). */
  constructor(config: RateLimitConfig, url: string, local: RateLimit, counters: StoreCounters, deadlineMs = 5) {
    this.deadlineMs = deadlineMs;
    this.burst = config.burst;
    this.windowSeconds = config.windowSeconds;
    this.gcra = new Gcra(config.burst, config.windowSeconds);
    this.local = local;
    this.counters = counters;
    this.prefix = keyPrefix(config.burst, config.windowSeconds);
    const memory = new SharedArrayBuffer(SHARED_BYTES);
    this.words = new Int32Array(memory, 0, HEADER_BYTES / 4);
    this.floats = new Float64Array(memory, 0, HEADER_BYTES / 8);
    this.keyBytes = new Uint8Array(memory, HEADER_BYTES, MAX_KEY_BYTES);
    this.thread = new Worker(new URL("./rate-store-thread.ts", import.meta.url).href);
    this.thread.unref();
    this.thread.onmessage = (e: MessageEvent<StoreEvent>) => this.onStoreEvent(e.data);
    this.thread.postMessage({ url, memory, burst: config.burst, windowSeconds: config.windowSeconds });
  }

  /** Admits a request of `key` if its bucket in Redis holds a token, charging it `cost`; this instance's bucket when Redis cannot answer in time. */
  take(key: string | null, cost: number): RateDecision {
    return this.apply(key, TAKE, cost);
  }

  /** Charges an admitted request `cost` more tokens (never refuses). */
  charge(key: string | null, cost: number): RateDecision {
    return this.apply(key, CHARGE, cost);
  }

  private apply(key: string | null, mode: number, cost: number): RateDecision {
    if (key === null) return this.local.take(key, cost); // never limited: no question for Redis
    const w = this.words;
    if (Atomics.load(w, W_STATE) !== STORE_UP) return this.fallback(key, mode, cost, this.everUp ? "connection lost" : "not connected yet");
    const now = performance.now();
    if (now < this.trippedUntil) return this.fallback(key, mode, cost, "slow", true);
    const bucket = bucketKey(this.prefix, key);
    const written = this.encoder.encodeInto(bucket, this.keyBytes);
    if (written.read! < bucket.length) return this.localApply(key, mode, cost); // longer than any address key: such a client is limited here
    Atomics.store(w, W_KEY_LENGTH, written.written!);
    Atomics.store(w, W_MODE, mode);
    this.floats[F_COST] = cost;
    const request = Atomics.add(w, W_REQUEST, 1) + 1; // publishes the writes above
    Atomics.notify(w, W_REQUEST);
    const deadline = now + this.deadlineMs;
    for (;;) {
      const answered = Atomics.load(w, W_ANSWER);
      if (answered === request) break;
      const left = deadline - performance.now();
      if (left <= 0) return this.missed(key, mode, cost);
      Atomics.wait(w, W_ANSWER, answered, left);
    }
    if (Atomics.load(w, W_OK) !== 1) return this.fallback(key, mode, cost, "command failed");
    this.misses = 0;
    this.tripMs = TRIP_FIRST_MS;
    if (this.outage !== null) this.restored();
    // The script answers TAT - now; rate-policy.ts's arithmetic makes the headers of it, as for the local table.
    return this.gcra.describe(this.decision, this.floats[F_DELTA]!, 0, Atomics.load(w, W_ALLOWED) === 1);
  }

  /** The store's state for /health and /metrics. */
  report(): StoreReport {
    const since = this.outage === null ? null : new Date(this.outage.since).toISOString();
    return { kind: "redis", state: this.state(), outage_since: since, fallbacks: this.counters.fallbacks, outages: this.counters.outages };
  }

  close(): void {
    this.thread.terminate();
  }

  private state(): StoreState {
    if (!this.connectionUp) return this.everUp ? "down" : "connecting";
    return performance.now() < this.trippedUntil ? "slow" : "up";
  }

  private missed(key: string, mode: number, cost: number): RateDecision {
    const reason = `${TRIP_AFTER} answers in a row later than ${this.deadlineMs} ms`;
    if (++this.misses < TRIP_AFTER) {
      this.counters.fallbacks++; // one late answer: decided here, not yet an outage
      if (this.outage !== null) this.outage.fallbacks++;
      return this.localApply(key, mode, cost);
    }
    this.misses = 0;
    this.trippedUntil = performance.now() + this.tripMs;
    this.tripMs = Math.min(TRIP_MAX_MS, this.tripMs * 2);
    // Tripped again within one outage: not a brief slowness (a frozen Redis), so a quiet
    // outage (begun within QUIET_MS of the last) is told now.
    if (this.outage !== null && !this.outage.logged) {
      this.outage.logged = true;
      logUnavailable(`${reason}, again after a backoff`);
    }
    return this.fallback(key, mode, cost, reason, true);
  }

  /** `slow`: Redis answers, too late; else it cannot answer at all. */
  private fallback(key: string, mode: number, cost: number, reason: string, slow = false): RateDecision {
    this.counters.fallbacks++;
    if (this.outage === null) this.beginOutage(reason, slow);
    this.outage!.fallbacks++;
    return this.localApply(key, mode, cost);
  }

  private localApply(key: string, mode: number, cost: number): RateDecision {
    return mode === TAKE ? this.local.take(key, cost) : this.local.charge(key, cost);
  }

  private beginOutage(reason: string, slow: boolean): void {
    const logged = !slow || Date.now() - this.lastRestored >= QUIET_MS;
    this.outage = { since: Date.now(), reason, fallbacks: 0, logged, slow };
    this.counters.outages++;
    if (logged) logUnavailable(reason);
  }

  private restored(): void {
    const o = this.outage!;
    if (o.logged) logEvent("rate_store_restored", { seconds: Math.round((Date.now() - o.since) / 100) / 10, decided_locally: o.fallbacks });
    this.outage = null;
    this.lastRestored = Date.now();
  }

  private onStoreEvent(event: StoreEvent): void {
    if (event.event === "attempt") {
      this.counters.connectAttempts++;
      return;
    }
    if (event.event === "up") {
      this.connectionUp = true;
      if (!this.everUp) logEvent("rate_store_connected", { kind: "redis" });
      this.everUp = true;
      // Connected again: an outage of a lost connection is over now, not at the next limited
      // request (/health would show outage_since meanwhile). Slowness ends when Redis answers in time.
      if (this.outage !== null && !this.outage.slow) this.restored();
    } else {
      this.connectionUp = false;
      if (!this.everUp) {
        // Never connected (a wrong password, nothing listening): each new reason told once.
        if (event.error !== this.toldReason) logUnavailable(event.error);
        this.toldReason = event.error;
        return;
      }
      // Logged here even with no request to notice it; the outage then counts its fallbacks.
      if (this.outage === null && this.everUp) this.beginOutage(event.error, false);
      else if (this.outage !== null && !this.outage.logged) {
        // A quiet outage for slowness that became a lost connection: that one is told.
        this.outage.logged = true;
        logUnavailable(event.error);
      }
      if (this.outage !== null) this.outage.slow = false; // now it ends when the connection is back
    }
  }
}

function logUnavailable(reason: string): void {
  logEvent("rate_store_unavailable", { reason, then: "this instance limits on its own until Redis answers again" });
}
