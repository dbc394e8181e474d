// What a rate limit decides, apart from where its state lives: GCRA (the generic cell
// rate algorithm, RFC 2697's token bucket as one number per client). A client's whole
// state is its "theoretical arrival time" (TAT): the instant at which its bucket would be
// full again. A bucket holds `burst` tokens refilled over `windowSeconds`; each token
// refills in `interval` = windowSeconds / burst seconds.
//
// Answers cost unequal amounts (docs/rate-limits.md), and a route knows an
// answer's cost only once it has it (the entries a transitions window holds). So a request
// is ADMITTED while its client's bucket holds at least one token, and CHARGED its whole
// cost, which may take the bucket below zero: the debt is paid by waiting, so over any
// stretch of time a client gets at most `burst` + (its last answer's cost) + the refill,
// whatever the mix of answers. A refused request is charged nothing.
//
// Stores (rate-store.ts) keep one TAT per client key; this module alone knows what the
// number means, so a store in another place (shared memory, Redis) holds the same state
// and decides alike: `admit` and `charge` are the whole algorithm.

export interface RateLimitConfig {
  /** Tokens in a full bucket (RATE_LIMIT's count). */
  burst: number;
  /** Over how many seconds an empty bucket refills. */
  windowSeconds: number;
  /** The RateLimit-Policy header value (draft-ietf-httpapi-ratelimit-headers): `"default";q=120;w=60`. */
  policy: string;
}

/** The answer for one request; a limiter reuses one object, read it before its next call. */
export interface RateDecision {
  allowed: boolean;
  /** False for a client the limit does not apply to (a loopback socket peer, no socket): no RateLimit headers. */
  limited: boolean;
  /** Whole tokens left after this request (0 in debt). */
  remaining: number;
  /** Seconds until the bucket next gains a token (0 when full); on a refusal, the Retry-After. */
  resetSeconds: number;
}

/** A TAT meaning "no state": a full bucket. Stores answer it for a key they do not hold. */
export const FULL = -Infinity;

/** The GCRA arithmetic of one policy. Pure: no clock, no state. */
export class Gcra {
  /** Seconds per token. */
  readonly interval: number;
  /** How far ahead of now a TAT may be while a token is left: window - interval. */
  private readonly admitBound: number;

  constructor(readonly burst: number, readonly windowSeconds: number) {
    this.interval = windowSeconds / burst;
    this.admitBound = windowSeconds - this.interval;
  }

  /** True when a bucket at `tat` holds a token at `now`. */
  admits(tat: number, now: number): boolean {
    return tat - now <= this.admitBound + 1e-9;
  }

  /** The TAT after charging `cost` tokens at `now` (never refuses: the bucket may go into debt). */
  charge(tat: number, now: number, cost: number): number {
    return (tat > now ? tat : now) + cost * this.interval;
  }

  /** Tokens in a bucket at `tat` (negative: debt). */
  tokens(tat: number, now: number): number {
    return (this.windowSeconds - ((tat > now ? tat : now) - now)) / this.interval;
  }

  /** Fills `d` for a bucket now at `tat`. */
  describe(d: RateDecision, tat: number, now: number, allowed: boolean): RateDecision {
    const tokens = this.tokens(tat, now);
    d.allowed = allowed;
    d.limited = true;
    d.remaining = tokens > 0 ? Math.floor(tokens + 1e-9) : 0;
    if (tokens >= this.burst - 1e-9) d.resetSeconds = 0;
    else if (tokens < 1) d.resetSeconds = Math.max(1, Math.ceil((1 - tokens) * this.interval - 1e-9)); // until it admits again
    else d.resetSeconds = Math.max(1, Math.ceil((d.remaining + 1 - tokens) * this.interval - 1e-9));
    return d;
  }
}
