// Per-client token buckets (RATE_LIMIT, e.g. 120/60s: a burst of 120, refilled at 2/s),
// one set per instance however many workers it runs. IPv6 clients are grouped by /64,
// since one subscriber holds a whole /64. A loopback client (health checks, the
// operator) is never limited.
//
// The buckets live in one fixed table in memory the workers share (process/shared-memory.ts),
// as nginx's limit_req keeps its zone in shared memory: a request is decided where it
// arrives, with no message to another process, and the limit holds for the instance.
// Alone (WORKERS=1) the same table lives in a private ArrayBuffer.
//
// The table is GROUPS groups of GROUP_SLOTS buckets; a client's key hashes (with a
// per-table random seed, so nobody can aim at a group) to one group, which is locked
// while its bucket is read and written. A group's lock word holds its holder's pid, so a
// worker killed while holding it (kill -9) costs a wait, never a deadlock. Memory is
// fixed whatever the number of clients: a new client takes a free or fully refilled
// bucket of its group (equivalent to none), or else the least recently used one, whose
// client just starts again with a full bucket: leniency toward a client idle while
// 262,144 others came, never a false 429.

import { parseIp } from "../ip/address.ts";

export interface RateLimitConfig {
  /** Requests allowed in a burst (the bucket size). */
  burst: number;
  /** Over how many seconds `burst` requests refill. */
  windowSeconds: number;
  /** The RateLimit-Policy header value (draft-ietf-httpapi-ratelimit-headers): `"default";q=120;w=60`. */
  policy: string;
}

const GROUP_SLOTS = 8;
const GROUPS = 1 << 15;
/** How many clients the table holds at once. */
export const RATE_TABLE_CAPACITY = GROUPS * GROUP_SLOTS;
const HEADER_WORDS = 16; // word 0: the hash seed
const LOCK_BASE = HEADER_WORDS;
const SLOT_BASE_BYTES = (HEADER_WORDS + GROUPS) * 4;
const SLOT_BYTES = 32; // i32 tag, i32 key hi, i32 key lo, i32 unused, f64 tokens, f64 at
/** The size of a rate table's memory. */
export const RATE_TABLE_BYTES = SLOT_BASE_BYTES + RATE_TABLE_CAPACITY * SLOT_BYTES;

const TAG_IPV4 = 4;
const TAG_IPV6_64 = 6;
const TAG_OTHER = 9; // a key that is not an address (an unidentified client behind a proxy)
const SPINS_BEFORE_CHECK = 4096;

/** Seconds on CLOCK_MONOTONIC, which every process of the machine reads alike (performance.now() starts at each process's own start). */
const MONOTONIC_OFFSET = Number(process.hrtime.bigint()) / 1e9 - performance.now() / 1000;
export const monotonicSeconds = () => performance.now() / 1000 + MONOTONIC_OFFSET;

/** The answer for one request; the limiter reuses one object, read it before the next take(). */
export interface RateDecision {
  allowed: boolean;
  /** False for a client the limit does not apply to (loopback, no socket): it gets no RateLimit headers. */
  limited: boolean;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
  /** Seconds until the bucket next gains a request (0 when full); on a refusal, the Retry-After. */
  resetSeconds: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class RateLimiter {
  readonly burst: number;
  readonly windowSeconds: number;
  private readonly perSecond: number;
  private readonly now: () => number;
  private readonly words: Int32Array;
  private readonly floats: Float64Array;
  private readonly seed: number;
  private readonly decision: RateDecision = { allowed: true, limited: false, remaining: 0, resetSeconds: 0 };
  // The key being decided, parsed into these (no allocation per request).
  private tag = 0;
  private hi = 0;
  private lo = 0;

  /** `memory`: RATE_TABLE_BYTES, zero-filled when new; shared memory makes one limit for every process that maps it. */
  constructor(config: RateLimitConfig, memory: ArrayBuffer = new ArrayBuffer(RATE_TABLE_BYTES), now: () => number = monotonicSeconds) {
    if (memory.byteLength < RATE_TABLE_BYTES) throw new Error(`a rate table needs ${RATE_TABLE_BYTES} bytes`);
    this.burst = config.burst;
    this.windowSeconds = config.windowSeconds;
    this.perSecond = config.burst / config.windowSeconds;
    this.now = now;
    this.words = new Int32Array(memory, 0, RATE_TABLE_BYTES / 4);
    this.floats = new Float64Array(memory, 0, RATE_TABLE_BYTES / 8);
    // The first process to look sets the seed; the others read it.
    Atomics.compareExchange(this.words, 0, 0, (Math.random() * 0x7fffffff) | 1);
    this.seed = Atomics.load(this.words, 0);
  }

  /** Parses `key` into tag/hi/lo; false for a key that is never limited (loopback). */
  private parseKey(key: string): boolean {
    const address = parseIp(key);
    if (address === null) {
      let a = 0x811c9dc5;
      let b = 0x01000193 ^ this.seed;
      for (let i = 0; i < key.length; i++) {
        a = Math.imul(a ^ key.charCodeAt(i), 0x01000193);
        b = Math.imul(b ^ key.charCodeAt(i), 0x5bd1e995);
      }
      this.tag = TAG_OTHER;
      this.hi = a | 0;
      this.lo = b | 0;
      return true;
    }
    if (address.version === 4) {
      if (address.value >>> 24 === 127) return false;
      this.tag = TAG_IPV4;
      this.hi = 0;
      this.lo = address.value | 0;
      return true;
    }
    const g = address.groups;
    if (g[7] === 1 && g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0 && g[6] === 0) return false; // ::1
    this.tag = TAG_IPV6_64;
    this.hi = ((g[0]! << 16) | g[1]!) | 0;
    this.lo = ((g[2]! << 16) | g[3]!) | 0;
    return true;
  }

  private lock(group: number): void {
    const index = LOCK_BASE + group;
    const me = process.pid;
    for (let spins = 1; ; spins++) {
      const holder = Atomics.compareExchange(this.words, index, 0, me);
      if (holder === 0) return;
      // A holder that died in its critical section (kill -9) releases nothing: take over its lock.
      if (spins % SPINS_BEFORE_CHECK === 0 && (holder === me || !alive(holder))) Atomics.compareExchange(this.words, index, holder, 0);
    }
  }

  /** The slot of the current key in `group`, claimed (full bucket) when it has none. */
  private slotOf(group: number, now: number): number {
    const words = this.words;
    const first = group * GROUP_SLOTS;
    let free = -1;
    let oldest = -1;
    let oldestAt = Infinity;
    for (let s = first; s < first + GROUP_SLOTS; s++) {
      const w = (SLOT_BASE_BYTES + s * SLOT_BYTES) >> 2;
      const tag = words[w]!;
      if (tag === this.tag && words[w + 1] === this.hi && words[w + 2] === this.lo) return s;
      const at = this.floats[(w >> 1) + 3]!;
      if (tag === 0 || now - at >= this.windowSeconds) {
        if (free < 0) free = s; // empty, or refilled to full: the same as no bucket
      } else if (at < oldestAt) {
        oldestAt = at;
        oldest = s;
      }
    }
    const s = free >= 0 ? free : oldest;
    const w = (SLOT_BASE_BYTES + s * SLOT_BYTES) >> 2;
    words[w] = this.tag;
    words[w + 1] = this.hi;
    words[w + 2] = this.lo;
    this.floats[(w >> 1) + 2] = this.burst;
    this.floats[(w >> 1) + 3] = now;
    return s;
  }

  /**
   * Takes `cost` tokens for `key` (a client address, or any other client key) if it has
   * them: an answer's cost is its share of the budget (a /clock of ten zones costs ten time
   * objects). A cost above the bucket is charged as the whole bucket, so that the dearest
   * answer still gets through once the bucket is full instead of never.
   */
  take(key: string | null, cost = 1): RateDecision {
    const d = this.decision;
    if (key === null || !this.parseKey(key)) {
      d.allowed = true;
      d.limited = false;
      d.remaining = this.burst;
      d.resetSeconds = 0;
      return d;
    }
    const charge = Math.min(cost, this.burst);
    const now = this.now();
    const group = mix(this.hi ^ this.seed ^ mix(this.lo ^ Math.imul(this.tag, 0x9e3779b1))) & (GROUPS - 1);
    let tokens: number;
    this.lock(group);
    try {
      const f = (SLOT_BASE_BYTES + this.slotOf(group, now) * SLOT_BYTES) >> 3;
      tokens = this.floats[f + 2]!;
      const elapsed = now - this.floats[f + 3]!;
      if (elapsed > 0) {
        // (Another process's clock reading may trail ours by a hair: time never runs back.)
        tokens = Math.min(this.burst, tokens + elapsed * this.perSecond);
        this.floats[f + 3] = now;
      }
      d.allowed = tokens >= charge;
      if (d.allowed) tokens -= charge;
      this.floats[f + 2] = tokens;
    } finally {
      Atomics.store(this.words, LOCK_BASE + group, 0);
    }
    d.limited = true;
    d.remaining = Math.floor(tokens);
    // Refused: when the bucket holds the charge again. Allowed: when it next gains a whole request.
    const wanted = d.allowed ? d.remaining + 1 : charge;
    d.resetSeconds = tokens >= this.burst ? 0 : Math.max(1, Math.ceil((wanted - tokens) / this.perSecond));
    return d;
  }
}
