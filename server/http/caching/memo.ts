// The one memo mechanism on the request path: a result that is a pure function of a text
// (a URL, a path parameter, a query) and the data, kept under that text so that the same
// text again costs one Map lookup. Every store is one of these, named for what it keeps,
// and reports its hits, misses, evictions and bytes in /metrics
// (zonetime_memo_*{memo="..."}), so that an operator sees whether each one earns its place.
//
// Bounded by entries, by key length (a client's 8 KB of text is never a key: it is a miss
// each time) and by bytes (the key at two bytes a character, plus what `bytesOf` says the
// value holds, plus a fixed overhead per entry for the Map slot and the record). Full, the
// store is cleared, and the entries it held count as evictions: a party sending texts
// chosen to be unique costs a miss each and a clear every so often, never memory. A
// refused input is never kept (callers keep results only): it is refused again each time.

/** A Map slot, the entry's record and its key's header: measured, about 200 bytes of heap per small entry. */
const ENTRY_OVERHEAD = 200;

export interface MemoBounds {
  maxEntries: number;
  /** Longer keys are never kept. */
  maxKeyLength: number;
  /** What the store may hold in all, by the estimate above. */
  maxBytes: number;
}

export interface MemoStats {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  bytes: number;
}

/**
 * A store's hits, misses and evictions since start: its own, or shared by stores that
 * report as one (each older tzdb release's data has its own stores, reported together).
 */
export interface MemoTally {
  hits: number;
  misses: number;
  evictions: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

export class Memo<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private used = 0;
  readonly tally: MemoTally;

  /**
   * `bytesOf`: the bytes a value holds beyond the overhead (a body's size); 0 for small records.
   * `previous`: the store this one replaces (a reload of the data): its counts go on, and
   * what it held counts as evicted, so that /metrics' counters never go down.
   * `tally`: counts shared with other stores reported as one (then `previous` is theirs to carry).
   */
  constructor(readonly name: string, readonly bounds: MemoBounds, private readonly bytesOf: (value: V) => number = () => 0, previous?: Memo<V>, tally?: MemoTally) {
    this.tally = tally ?? {
      hits: previous?.hits ?? 0,
      misses: previous?.misses ?? 0,
      evictions: previous === undefined ? 0 : previous.evictions + previous.size,
    };
  }

  get hits(): number {
    return this.tally.hits;
  }

  get misses(): number {
    return this.tally.misses;
  }

  get evictions(): number {
    return this.tally.evictions;
  }

  /** The value kept under `key`, counted as a hit, or undefined, counted as a miss. Shared between requests: never change it. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.tally.misses++;
      return undefined;
    }
    this.tally.hits++;
    return entry.value;
  }

  /** Keeps `value` under `key` within the bounds (a key too long, or a value bigger than the whole budget, is not kept). */
  set(key: string, value: V): void {
    if (key.length > this.bounds.maxKeyLength) return;
    const bytes = 2 * key.length + this.bytesOf(value) + ENTRY_OVERHEAD;
    if (bytes > this.bounds.maxBytes) return;
    const before = this.entries.get(key);
    if (before !== undefined) this.used -= before.bytes;
    else if (this.entries.size >= this.bounds.maxEntries || this.used + bytes > this.bounds.maxBytes) this.clear();
    this.entries.set(key, { value, bytes });
    this.used += bytes;
  }

  /** A hit that turned out not to hold (an answer about another second): counted as a miss instead. */
  stale(): void {
    this.tally.hits--;
    this.tally.misses++;
  }

  stats(): MemoStats {
    return { hits: this.tally.hits, misses: this.tally.misses, evictions: this.tally.evictions, entries: this.entries.size, bytes: this.used };
  }

  get size(): number {
    return this.entries.size;
  }

  /** The values kept now (for reports: no hit counted). */
  *values(): IterableIterator<V> {
    for (const entry of this.entries.values()) yield entry.value;
  }

  /** The keys kept now (for reports: no hit counted). */
  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  private clear(): void {
    this.tally.evictions += this.entries.size;
    this.entries.clear();
    this.used = 0;
  }
}
