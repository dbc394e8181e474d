// Where the rate limit's state lives on one instance: a fixed table of client buckets in
// memory the workers share (process/shared-memory.ts), as nginx's limit_req keeps its zone
// in shared memory: a request is decided where it arrives, with no message to another
// process, and the limit holds for the instance. Alone (WORKERS=1) the same table lives in
// a private ArrayBuffer. What a bucket's number means is rate-policy.ts's business; this
// file only keeps one GCRA TAT per client key, atomically.
//
// Keys: an IPv4 address, an IPv6 address by its /64 (one subscriber holds a whole /64),
// or any other text (an unidentified client behind a proxy), hashed.
//
// The table is GROUPS groups of GROUP_SLOTS buckets; a key hashes (with a per-table
// random seed, so nobody can aim at a group) to one group, which is locked while its
// bucket is read and written. A group's lock word holds its holder's pid, so a worker
// killed while holding it (kill -9) costs a wait, never a deadlock. Memory is fixed
// whatever the number of clients. A new client takes a bucket that is full again (its TAT
// is past: the same as no bucket) or else, in a full group, the bucket CLOSEST TO FULL
// (the smallest TAT), whose client loses the least by starting again with a full bucket.
// Never the least recently seen one: a party spraying fresh addresses (a /64 each) leaves
// nearly full buckets behind, so it evicts its own, while a throttled client's bucket (far
// from full, TAT in the future) stays, and its limit holds (issue 17, F8).

import { parseIp } from "../../ip/address.ts";
import { FULL } from "./rate-policy.ts";

/** What a limiter asks a store to do to one key's TAT (rate-limiter.ts implements it). */
export interface RateStep {
  /** The key's new TAT, from its current one (FULL for a key the store does not hold). */
  next(tat: number, now: number): number;
}

/** Keeps one TAT per client key; `update` is atomic for a key (no other update of it in between). */
export interface RateStore {
  /** Reads `key`'s TAT, stores `step.next(tat, now)` and returns it. */
  update(key: string, now: number, step: RateStep): number;
}

const GROUP_SLOTS = 8;
const GROUPS = 1 << 15;
/** How many clients the table holds at once. */
export const RATE_TABLE_CAPACITY = GROUPS * GROUP_SLOTS;
const HEADER_WORDS = 16; // word 0: the hash seed
const LOCK_BASE = HEADER_WORDS;
const SLOT_BASE_BYTES = (HEADER_WORDS + GROUPS) * 4;
const SLOT_BYTES = 32; // i32 tag, i32 key hi, i32 key lo, i32 unused, f64 TAT, f64 unused
/** The size of a rate table's memory. */
export const RATE_TABLE_BYTES = SLOT_BASE_BYTES + RATE_TABLE_CAPACITY * SLOT_BYTES;

const TAG_IPV4 = 4;
const TAG_IPV6_64 = 6;
const TAG_OTHER = 9; // a key that is not an address (an unidentified client behind a proxy)
const SPINS_BEFORE_CHECK = 4096;

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

export class RateTable implements RateStore {
  private readonly words: Int32Array;
  private readonly floats: Float64Array;
  private readonly seed: number;
  // The key being decided, parsed into these (no allocation per request).
  private tag = 0;
  private hi = 0;
  private lo = 0;

  /** `memory`: RATE_TABLE_BYTES, zero-filled when new; shared memory makes one table for every process that maps it. */
  constructor(memory: ArrayBuffer = new ArrayBuffer(RATE_TABLE_BYTES)) {
    if (memory.byteLength < RATE_TABLE_BYTES) throw new Error(`a rate table needs ${RATE_TABLE_BYTES} bytes`);
    this.words = new Int32Array(memory, 0, RATE_TABLE_BYTES / 4);
    this.floats = new Float64Array(memory, 0, RATE_TABLE_BYTES / 8);
    // The first process to look sets the seed; the others read it.
    Atomics.compareExchange(this.words, 0, 0, (Math.random() * 0x7fffffff) | 1);
    this.seed = Atomics.load(this.words, 0);
  }

  private parseKey(key: string): void {
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
    } else if (address.version === 4) {
      this.tag = TAG_IPV4;
      this.hi = 0;
      this.lo = address.value | 0;
    } else {
      const g = address.groups;
      this.tag = TAG_IPV6_64;
      this.hi = ((g[0]! << 16) | g[1]!) | 0;
      this.lo = ((g[2]! << 16) | g[3]!) | 0;
    }
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

  /** The slot of the current key in `group`, claimed (TAT = FULL) when it has none. */
  private slotOf(group: number, now: number): number {
    const words = this.words;
    const first = group * GROUP_SLOTS;
    let free = -1;
    let closest = -1;
    let closestTat = Infinity;
    for (let s = first; s < first + GROUP_SLOTS; s++) {
      const w = (SLOT_BASE_BYTES + s * SLOT_BYTES) >> 2;
      const tag = words[w]!;
      if (tag === this.tag && words[w + 1] === this.hi && words[w + 2] === this.lo) return s;
      const tat = this.floats[(w >> 1) + 2]!;
      if (tag === 0 || tat <= now) {
        if (free < 0) free = s; // empty, or refilled to full: the same as no bucket
      } else if (tat < closestTat) {
        closestTat = tat;
        closest = s;
      }
    }
    const s = free >= 0 ? free : closest;
    const w = (SLOT_BASE_BYTES + s * SLOT_BYTES) >> 2;
    words[w] = this.tag;
    words[w + 1] = this.hi;
    words[w + 2] = this.lo;
    this.floats[(w >> 1) + 2] = FULL;
    return s;
  }

  update(key: string, now: number, step: RateStep): number {
    this.parseKey(key);
    const group = mix(this.hi ^ this.seed ^ mix(this.lo ^ Math.imul(this.tag, 0x9e3779b1))) & (GROUPS - 1);
    this.lock(group);
    try {
      const f = ((SLOT_BASE_BYTES + this.slotOf(group, now) * SLOT_BYTES) >> 3) + 2;
      const tat = step.next(this.floats[f]!, now);
      this.floats[f] = tat;
      return tat;
    } finally {
      Atomics.store(this.words, LOCK_BASE + group, 0);
    }
  }
}
