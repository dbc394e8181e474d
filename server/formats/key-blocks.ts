// Sorted byte keys in front-coded blocks, each key with a run of entries (postings,
// results) in a table of its user's: the search index of places.bin and of names.bin.
// KEY_BLOCK keys per block; the first key of a block is whole, each other one is the
// length it shares with the key before it and the rest:
//
//   per key  u8 shared length (0 for a block's first key); u8 128 + the rest's length when
//            that is under 128 and the key has one entry (most keys), else the rest's
//            length (0, then a u8 of it, when it is 128 or more); the rest's bytes; then,
//            unless the first form said one, its entry count (LEB128, at least 1)
//   u32[blockCount+1]  each block's first byte, then the end
//   u32[blockCount+1]  each block's first entry, then the entry count
//
// This replaces a u32 byte offset and a u32 entry start per key (8 bytes a key) and most
// of the bytes sorted neighbours repeat. A search binary-searches the blocks' first keys
// and reads at most a block or two of records, comparing them with the query without
// rebuilding a key: a key that shares less with its predecessor than the predecessor
// shared with the query is past the query (the keys are sorted), one that shares more
// compares as its predecessor did, only an equal share needs its rest read.

export const KEY_BLOCK = 16;
/** Shared and rest lengths are single bytes. */
export const MAX_KEY_BYTES = 255;
/** A rest byte at or above this: the rest's length plus it, and one entry. */
const ONE_ENTRY = 128;

export interface KeyBlocks {
  keyCount: number;
  /** u32[blockCount+1]: each block's first byte in `bytes`, then the end. */
  blockStarts: Uint32Array;
  /** u32[blockCount+1]: each block's first entry, then the number of entries. */
  blockEntries: Uint32Array;
  bytes: Uint8Array;
}

/** `keys` sorted by bytes, distinct, 1..MAX_KEY_BYTES bytes; `counts[k]` >= 1 entries each, stored in key order. */
export function encodeKeyBlocks(keys: readonly Uint8Array[], counts: ArrayLike<number>): KeyBlocks {
  const blockCount = Math.ceil(keys.length / KEY_BLOCK);
  const blockStarts = new Uint32Array(blockCount + 1);
  const blockEntries = new Uint32Array(blockCount + 1);
  let bytes = new Uint8Array(1 << 16);
  let n = 0;
  let entries = 0;
  const put = (byte: number) => {
    if (n === bytes.length) {
      const grown = new Uint8Array(2 * bytes.length);
      grown.set(bytes);
      bytes = grown;
    }
    bytes[n++] = byte;
  };
  keys.forEach((key, k) => {
    if (key.length < 1 || key.length > MAX_KEY_BYTES) throw new Error(`key blocks: key ${k} is ${key.length} bytes`);
    if (!(counts[k]! >= 1)) throw new Error(`key blocks: key ${k} has no entries`);
    let shared = 0;
    if (k % KEY_BLOCK === 0) {
      blockStarts[k / KEY_BLOCK] = n;
      blockEntries[k / KEY_BLOCK] = entries;
    } else {
      const previous = keys[k - 1]!;
      const max = Math.min(previous.length, key.length);
      while (shared < max && previous[shared] === key[shared]) shared++;
      if (Buffer.compare(previous, key) >= 0) throw new Error(`key blocks: key ${k} is not after key ${k - 1}`);
    }
    const rest = key.length - shared;
    put(shared);
    if (rest < ONE_ENTRY && counts[k] === 1) put(ONE_ENTRY + rest);
    else if (rest < ONE_ENTRY) put(rest);
    else (put(0), put(rest));
    for (let i = shared; i < key.length; i++) put(key[i]!);
    if (rest < ONE_ENTRY && counts[k] === 1) return void (entries += 1);
    for (let c = counts[k]!; ; c = Math.floor(c / 128)) {
      if (c < 128) {
        put(c);
        break;
      }
      put(0x80 | (c & 127));
    }
    entries += counts[k]!;
  });
  blockStarts[blockCount] = n;
  blockEntries[blockCount] = entries;
  return { keyCount: keys.length, blockStarts, blockEntries, bytes: bytes.slice(0, n) };
}

/**
 * Decodes every key in order, checking what a search relies on: blocks that span the bytes,
 * records inside their block, whole first keys, keys strictly ascending, entry counts
 * summing to the blocks' starts. `visit` (optional) sees each key, its bytes only valid
 * during the call.
 */
export function checkKeyBlocks(
  blocks: KeyBlocks, entryCount: number, fail: (reason: string) => never,
  visit?: (k: number, key: Uint8Array, first: number, end: number) => void,
): void {
  const { keyCount, blockStarts, blockEntries, bytes } = blocks;
  const blockCount = Math.ceil(keyCount / KEY_BLOCK);
  if (blockStarts.length !== blockCount + 1 || blockEntries.length !== blockCount + 1) fail("key blocks do not match the key count");
  if (blockStarts[0] !== 0 || blockStarts[blockCount] !== bytes.length) fail("key blocks do not span their bytes");
  if (blockEntries[0] !== 0 || blockEntries[blockCount] !== entryCount) fail("key blocks do not span their entries");
  const key = new Uint8Array(MAX_KEY_BYTES);
  let length = 0;
  for (let b = 0; b < blockCount; b++) {
    let at = blockStarts[b]!;
    const end = blockStarts[b + 1]!;
    let entry = blockEntries[b]!;
    const keysHere = Math.min(KEY_BLOCK, keyCount - b * KEY_BLOCK);
    for (let j = 0; j < keysHere; j++) {
      const k = b * KEY_BLOCK + j;
      if (at + 3 > end) fail(`key ${k} lies outside its block`);
      const shared = bytes[at]!;
      const form = bytes[at + 1]!;
      const from = form === 0 ? at + 3 : at + 2;
      const rest = form >= ONE_ENTRY ? form - ONE_ENTRY : form === 0 ? bytes[at + 2]! : form;
      if ((j === 0 && shared !== 0) || shared > length || rest === 0 || (form === 0 && rest < ONE_ENTRY) || shared + rest > MAX_KEY_BYTES || from + rest > end) {
        fail(`key ${k} is malformed`);
      }
      // Ascending: the first byte after the shared part is above the previous key's (or the previous key ends there).
      if (k > 0 && shared < length) {
        const differs = bytes[from]! - key[shared]!;
        if (differs < 0 || (differs === 0 && j > 0)) fail(`key ${k} is not after key ${k - 1}`);
        if (differs === 0 && !startsAfter(key, length, bytes, from, shared, rest)) fail(`key ${k} is not after key ${k - 1}`);
      }
      // A byte loop, not subarray(): no object per key while a table loads.
      for (let i = 0; i < rest; i++) key[shared + i] = bytes[from + i]!;
      length = shared + rest;
      at = from + rest;
      let count = 1;
      if (form < ONE_ENTRY) {
        count = 0;
        for (let shift = 0; ; shift += 7) {
          if (at >= end || shift > 28) fail(`key ${k}'s entry count is malformed`);
          const byte = bytes[at++]!;
          count += (byte & 127) * 2 ** shift;
          if (byte < 128) break;
        }
      }
      if (count < 1) fail(`key ${k} has no entries`);
      visit?.(k, key.subarray(0, length), entry, entry + count);
      entry += count;
    }
    if (at !== end || entry !== blockEntries[b + 1]) fail(`key block ${b} does not end where the next one starts`);
  }
}

/** A block's first key (shared 0) after a previous key whose first `shared` bytes it repeats by chance: compared whole. */
function startsAfter(previous: Uint8Array, length: number, bytes: Uint8Array, at: number, shared: number, rest: number): boolean {
  for (let i = 0; i < Math.min(length - shared, rest); i++) {
    const d = bytes[at + i]! - previous[shared + i]!;
    if (d !== 0) return d > 0;
  }
  return rest > length - shared;
}

// A key against the query: below it, starting with it, or past it (not starting with it).
const BELOW = 0;
const PREFIXED = 1;
const PAST = 2;

/**
 * The search over KeyBlocks. find() leaves its answer in fields (no allocation): the keys
 * starting with the query are [lo, hi), their entries [loEntry, hiEntry), those of the key
 * equal to the query (when there is one: key lo) [loEntry, exactEnd).
 */
export class KeyBlockIndex {
  readonly keyCount: number;
  readonly blocks: KeyBlocks;
  lo = 0;
  hi = 0;
  loEntry = 0;
  exactEnd = 0;
  hiEntry = 0;
  private readonly bytes: Uint8Array;
  private readonly blockStarts: Uint32Array;
  private readonly blockEntries: Uint32Array;
  private readonly blockCount: number;
  // The scan's position: key `k` of block `block`, its record at `at`, its first entry `entry`,
  // its length, how much of it equals the query (`match`) and how it compares (`order`).
  private block = 0;
  private k = 0;
  private at = 0;
  private entry = 0;
  private length = 0;
  private match = 0;
  private order = BELOW;
  private count = 0;

  constructor(blocks: KeyBlocks) {
    this.blocks = blocks;
    this.keyCount = blocks.keyCount;
    this.bytes = blocks.bytes;
    this.blockStarts = blocks.blockStarts;
    this.blockEntries = blocks.blockEntries;
    this.blockCount = blocks.blockStarts.length - 1;
  }

  /** Finds the keys starting with `query[0..n)`; false when there are none. */
  find(query: Uint8Array, n: number): boolean {
    this.lo = this.hi = this.loEntry = this.exactEnd = this.hiEntry = 0;
    if (this.keyCount === 0) return false;
    // The last block whose first key is below the query (the query's keys start in it or at the next block's first key).
    let a = 0;
    let b = this.blockCount;
    while (b - a > 1) {
      const mid = (a + b) >>> 1;
      if (this.headOrder(mid, query, n) === BELOW) a = mid;
      else b = mid;
    }
    this.startBlock(a, query, n);
    while (this.order === BELOW && this.step(query, n));
    if (this.order !== PREFIXED) return false;
    this.lo = this.k;
    this.loEntry = this.entry;
    this.exactEnd = this.length === n ? this.entry + this.count : this.entry;
    // The last block whose first key is not past the query, galloping from here: most ranges are short.
    const from = this.block;
    let last = from;
    let step = 1;
    while (from + step < this.blockCount && this.headOrder(from + step, query, n) !== PAST) {
      last = from + step;
      step *= 2;
    }
    let end = Math.min(from + step, this.blockCount);
    while (end - last > 1) {
      const mid = (last + end) >>> 1;
      if (this.headOrder(mid, query, n) !== PAST) last = mid;
      else end = mid;
    }
    if (last !== from) this.startBlock(last, query, n);
    // (startBlock and step change `order`: TypeScript's narrowing above does not see it.)
    while ((this.order as number) !== PAST && this.step(query, n));
    // step() leaves k and entry past the last key at the end of the keys.
    this.hi = this.k;
    this.hiEntry = this.entry;
    return true;
  }

  /** Key `k`'s bytes (a copy: for the build and the tests, not the search). */
  keyAt(k: number): Uint8Array {
    const key = new Uint8Array(MAX_KEY_BYTES);
    let length = 0;
    const block = Math.floor(k / KEY_BLOCK);
    let at = this.blockStarts[block]!;
    for (let j = block * KEY_BLOCK; j <= k; j++) {
      const shared = this.bytes[at]!;
      const form = this.bytes[at + 1]!;
      const from = form === 0 ? at + 3 : at + 2;
      const rest = form >= ONE_ENTRY ? form - ONE_ENTRY : form === 0 ? this.bytes[at + 2]! : form;
      key.set(this.bytes.subarray(from, from + rest), shared);
      length = shared + rest;
      at = from + rest;
      if (form < ONE_ENTRY) while (this.bytes[at++]! >= 128);
    }
    return key.slice(0, length);
  }

  /** Compares block `b`'s first key with the query. */
  private headOrder(b: number, query: Uint8Array, n: number): number {
    const bytes = this.bytes;
    let at = this.blockStarts[b]! + 1;
    const form = bytes[at++]!;
    // A block's first key shares nothing: its rest is all of it.
    const length = form >= ONE_ENTRY ? form - ONE_ENTRY : form === 0 ? bytes[at++]! : form;
    const m = length < n ? length : n;
    for (let i = 0; i < m; i++) {
      const d = bytes[at + i]! - query[i]!;
      if (d !== 0) return d < 0 ? BELOW : PAST;
    }
    return length < n ? BELOW : PREFIXED;
  }

  /** Puts the scan on block `b`'s first key. */
  private startBlock(b: number, query: Uint8Array, n: number): void {
    this.block = b;
    this.k = b * KEY_BLOCK;
    this.at = this.blockStarts[b]!;
    this.entry = this.blockEntries[b]!;
    this.match = 0;
    this.read(query, n);
  }

  /** Moves the scan to the next key; false at the end of the keys. */
  private step(query: Uint8Array, n: number): boolean {
    if (this.k + 1 >= this.keyCount) {
      this.order = PAST;
      this.k = this.keyCount;
      this.entry += this.count;
      return false;
    }
    this.k++;
    this.entry += this.count;
    if (this.k % KEY_BLOCK === 0) {
      this.block++;
      this.match = 0;
    }
    this.read(query, n);
    return true;
  }

  /** Reads the record at `at` (the key after the one the fields describe) and compares it with the query. */
  private read(query: Uint8Array, n: number): void {
    const bytes = this.bytes;
    let at = this.at;
    const shared = bytes[at]!;
    const form = bytes[at + 1]!;
    at += 2;
    const rest = form >= ONE_ENTRY ? form - ONE_ENTRY : form === 0 ? bytes[at++]! : form;
    this.length = shared + rest;
    if (shared < this.match) {
      // It leaves the previous key (which equalled the query up to `match`) upward: past the query.
      this.match = shared;
      this.order = PAST;
    } else if (shared === this.match) {
      let i = shared;
      const stop = this.length < n ? this.length : n;
      while (i < stop && bytes[at + i - shared] === query[i]) i++;
      this.match = i;
      this.order = i === n ? PREFIXED : i === this.length || bytes[at + i - shared]! < query[i]! ? BELOW : PAST;
    }
    // shared > match: it compares as the previous key did.
    at += rest;
    let count = 1;
    if (form < ONE_ENTRY) {
      count = 0;
      for (let shift = 1; ; shift *= 128) {
        const byte = bytes[at++]!;
        count += (byte & 127) * shift;
        if (byte < 128) break;
      }
    }
    this.count = count;
    this.at = at;
  }
}
