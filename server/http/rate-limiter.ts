// Per-client token buckets (RATE_LIMIT, e.g. 120/60s: a burst of 120, refilled at 2/s).
// IPv6 clients are grouped by /64, since one subscriber holds a whole /64. A loopback
// client (health checks, the operator) is never limited.
//
// Memory stays bounded whatever the number of distinct clients: buckets live in two
// generations of at most GENERATION_SIZE entries; when the current one fills, the older
// one is dropped. A dropped client just starts again with a full bucket, so the bound
// costs some leniency toward clients idle for a whole generation, never a false 429.

import { parseIp } from "../ip/address.ts";

export const GENERATION_SIZE = 100_000;

export interface RateLimitConfig {
  /** Requests allowed in a burst (the bucket size). */
  burst: number;
  /** Over how many seconds `burst` requests refill. */
  windowSeconds: number;
  /** The RateLimit-Policy header value (draft-ietf-httpapi-ratelimit-headers): `"default";q=120;w=60`. */
  policy: string;
}

interface Bucket {
  tokens: number;
  /** Seconds (monotonic) when `tokens` was last brought up to date. */
  at: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Shared: the common answer allocates nothing. */
const ALLOWED: RateDecision = Object.freeze({ allowed: true });

export class RateLimiter {
  private current = new Map<string, Bucket>();
  private previous = new Map<string, Bucket>();
  readonly burst: number;
  readonly windowSeconds: number;
  private readonly perSecond: number;
  private readonly now: () => number;

  constructor(config: RateLimitConfig, now: () => number = () => performance.now() / 1000) {
    this.burst = config.burst;
    this.windowSeconds = config.windowSeconds;
    this.perSecond = config.burst / config.windowSeconds;
    this.now = now;
  }

  /** The bucket key of an address: IPv4 as is, IPv6 by /64; null for loopback (never limited). */
  static keyOf(address: string): string | null {
    if (address === "127.0.0.1" || address === "::1" || address.startsWith("127.")) return null;
    if (!address.includes(":")) return address;
    const parsed = parseIp(address);
    if (!parsed || parsed.version !== 6) return address;
    const g = parsed.groups;
    return `${g[0]!.toString(16)}:${g[1]!.toString(16)}:${g[2]!.toString(16)}:${g[3]!.toString(16)}::/64`;
  }

  /** Takes one token for `address` if it has one. */
  take(address: string | null): RateDecision {
    if (address === null) return ALLOWED;
    const key = RateLimiter.keyOf(address);
    if (key === null) return ALLOWED;
    const now = this.now();
    let bucket = this.current.get(key);
    if (bucket === undefined) {
      bucket = this.previous.get(key) ?? { tokens: this.burst, at: now };
      this.previous.delete(key);
      if (this.current.size >= GENERATION_SIZE) {
        this.previous = this.current;
        this.current = new Map();
      }
      this.current.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perSecond);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)) };
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}
