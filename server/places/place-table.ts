// Places by name, from generated/places.bin (format: formats/places-format.ts), mapped
// read-only and shared by the workers. A query is folded (query-fold.ts), its prefix range
// found by binary search over the sorted keys, and the best places of that range taken:
// from the table's precomputed list where the range is large (a one-letter prefix), by a
// scan of the range otherwise. The work reads typed arrays and writes into buffers owned
// by the table; only the answer's objects are allocated.

import { mapTable } from "../formats/map-table.ts";
import { decodePlacesTable, MAX_LIMIT, NO_ADMIN1, POSTING_FULL, type PlacesTableData } from "../formats/places-format.ts";
import { foldQuery, type FoldMap } from "./query-fold.ts";

/** A place as the API answers it. */
export interface Place {
  /** GeoNames' id: stable across releases of the data. */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  country_name: string;
  /** The first-level region's name, or null. */
  admin1: string | null;
  latitude: number;
  longitude: number;
  population: number;
  /** From our boundary table at (latitude, longitude): what /coordinates answers there. */
  timezone: string;
}

export interface SearchOptions {
  /** ISO 3166-1 alpha-2, upper case; unknown codes find nothing. */
  country?: string;
  /** 1..MAX_LIMIT; default 10. */
  limit?: number;
}

export const DEFAULT_LIMIT = 10;
/** Folded bytes kept of a query: far more than the 100 characters the API accepts fold to. */
const MAX_QUERY_BYTES = 1024;
/** Ranges with more postings than this are answered from the table's precomputed lists. */
export const HEAVY_POSTINGS = 64;
// Rank of a candidate: tier (exact name 3, exact later words 2, name prefix 1, later-word
// prefix 0) above the place's index (places are stored best first).
const TIER_SHIFT = 22;
const INDEX_MASK = (1 << TIER_SHIFT) - 1;

export class PlaceTable {
  readonly data: PlacesTableData;
  readonly metadata: Record<string, unknown>;
  private readonly fold: FoldMap;
  private readonly keyOffsets: Uint32Array;
  private readonly keyBytes: Uint8Array;
  private readonly postingStarts: Uint32Array;
  private readonly postings: Uint32Array;
  private readonly country: Uint16Array;
  private readonly names: Buffer;
  private readonly countryIndex = new Map<string, number>();
  private readonly query = new Uint8Array(MAX_QUERY_BYTES);
  private readonly rank = new Int32Array(MAX_LIMIT);
  private readonly found = new Int32Array(MAX_LIMIT);
  private count = 0;

  constructor(data: PlacesTableData) {
    if (data.ids.length > INDEX_MASK) throw new Error("places table: too many places for the rank encoding");
    this.data = data;
    this.metadata = data.metadata;
    this.fold = { codes: data.foldCodes, offsets: data.foldOffsets, bytes: data.foldBytes };
    this.keyOffsets = data.keyOffsets;
    this.keyBytes = data.keyBytes;
    this.postingStarts = data.postingStarts;
    this.postings = data.postings;
    this.country = data.country;
    this.names = Buffer.from(data.nameBytes.buffer, data.nameBytes.byteOffset, data.nameBytes.byteLength);
    data.countryCodes.forEach((code, i) => this.countryIndex.set(code, i));
  }

  /** Maps the file read-only (formats/map-table.ts): workers share its pages. */
  static load(path: string): PlaceTable {
    return new PlaceTable(decodePlacesTable(mapTable(path), path));
  }

  get size(): number {
    return this.data.ids.length;
  }

  /** True when `code` (upper case) is a country some place is in. */
  hasCountry(code: string): boolean {
    return this.countryIndex.has(code);
  }

  /**
   * The places `query` names, best first: whole words, or a prefix of the last word,
   * folded (case, accents); ranked exact name, then exact later words, then prefixes,
   * each by the place's rank (population, capitals). [] when nothing matches.
   */
  searchPlaces(query: string, options: SearchOptions = {}): Place[] {
    const places: Place[] = [];
    if (!this.search(query, options)) return places;
    for (let i = 0; i < this.count; i++) places.push(this.place(this.found[i]!));
    return places;
  }

  /** Leaves the best place indexes in `found[0..count)`; false when nothing can match. */
  private search(query: string, options: SearchOptions): boolean {
    this.count = 0;
    const limit = Math.max(1, Math.min(MAX_LIMIT, options.limit ?? DEFAULT_LIMIT));
    let country = -1;
    if (options.country !== undefined) {
      const index = this.countryIndex.get(options.country);
      if (index === undefined) return false;
      country = index;
    }
    const n = foldQuery(query, this.fold, this.query);
    if (n <= 0) return false;
    this.collect(n, limit, country);
    return this.count > 0;
  }

  /** The best places for the first `length` bytes of key `key`, by a scan of its range (the build precomputes its lists with this). */
  rankedPrefix(key: number, length: number, limit: number): number[] {
    this.query.set(this.keyBytes.subarray(this.keyOffsets[key]!, this.keyOffsets[key]! + length));
    this.collect(length, limit, -1, false);
    return Array.from(this.found.subarray(0, this.count));
  }

  /** searchPlaces' place indexes by a scan of the whole range, never the precomputed lists (the tests' reference). */
  scannedIndexes(query: string, options: SearchOptions = {}): number[] {
    const country = options.country === undefined ? -1 : this.countryIndex.get(options.country) ?? -2;
    const n = foldQuery(query, this.fold, this.query);
    if (n <= 0 || country === -2) return [];
    this.collect(n, Math.max(1, Math.min(MAX_LIMIT, options.limit ?? DEFAULT_LIMIT)), country, false);
    return Array.from(this.found.subarray(0, this.count));
  }

  /** The place at `index` (its rank), as the API answers it. */
  place(index: number): Place {
    const d = this.data;
    const admin1 = d.admin1[index]!;
    const c = d.country[index]!;
    return {
      id: d.ids[index]!,
      name: this.names.toString("utf8", d.nameOffsets[index]!, d.nameOffsets[index + 1]!),
      country: d.countryCodes[c]!,
      country_name: d.countryNames[c]!,
      admin1: admin1 === NO_ADMIN1 ? null : d.admin1Names[admin1]!,
      latitude: d.lat5[index]! / 1e5,
      longitude: d.lon5[index]! / 1e5,
      population: d.population[index]!,
      timezone: d.zones[d.zone[index]!]!,
    };
  }

  private collect(n: number, limit: number, country: number, useHeavy = true): void {
    this.count = 0;
    const lo = this.lowerBound(n);
    const hi = this.prefixEnd(lo, n);
    if (lo >= hi) return;
    if (useHeavy && this.postingStarts[hi]! - this.postingStarts[lo]! > HEAVY_POSTINGS && this.fromHeavy(lo, n, limit, country)) return;
    const exact = this.keyOffsets[lo + 1]! - this.keyOffsets[lo]! === n;
    for (let k = lo; k < hi; k++) {
      const exactKey = exact && k === lo;
      for (let p = this.postingStarts[k]!; p < this.postingStarts[k + 1]!; p++) {
        const posting = this.postings[p]!;
        const index = posting >>> 1;
        if (country >= 0 && this.country[index] !== country) continue;
        const tier = (exactKey ? 2 : 0) + (posting & POSTING_FULL);
        this.offer((tier << TIER_SHIFT) | (INDEX_MASK - index), index, limit);
      }
    }
  }

  /** From the precomputed best places of this exact prefix; false when there is none or the country filter leaves too few. */
  private fromHeavy(lo: number, n: number, limit: number, country: number): boolean {
    const heavy = this.data.heavy;
    let a = 0;
    let b = heavy.length >> 1;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const key = heavy[2 * mid]!;
      if (key < lo || (key === lo && heavy[2 * mid + 1]! < n)) a = mid + 1;
      else b = mid;
    }
    if (a >= heavy.length >> 1 || heavy[2 * a] !== lo || heavy[2 * a + 1] !== n) return false;
    const entries = this.data.heavyEntries;
    const start = this.data.heavyStarts[a]!;
    const end = this.data.heavyStarts[a + 1]!;
    for (let e = start; e < end && this.count < limit; e++) {
      const index = entries[e]!;
      if (country >= 0 && this.country[index] !== country) continue;
      this.found[this.count++] = index;
    }
    // The list is the prefix's best MAX_LIMIT places (all of them when shorter): filtered
    // by country it is still that country's best as far as it reaches, so it answers when
    // it fills the limit or holds every place of the prefix.
    if (this.count === limit || end - start < MAX_LIMIT) return true;
    this.count = 0;
    return false;
  }

  /** Keeps the `limit` best (rank, index) pairs, each place once, best first. */
  private offer(rank: number, index: number, limit: number): void {
    const ranks = this.rank;
    const found = this.found;
    let count = this.count;
    if (count === limit && rank <= ranks[count - 1]!) return;
    for (let i = 0; i < count; i++) {
      if (found[i] !== index) continue;
      if (rank <= ranks[i]!) return;
      for (let j = i; j + 1 < count; j++) {
        ranks[j] = ranks[j + 1]!;
        found[j] = found[j + 1]!;
      }
      count--;
      break;
    }
    let at = count < limit ? count : limit - 1;
    while (at > 0 && ranks[at - 1]! < rank) {
      if (at < limit) {
        ranks[at] = ranks[at - 1]!;
        found[at] = found[at - 1]!;
      }
      at--;
    }
    ranks[at] = rank;
    found[at] = index;
    this.count = count < limit ? count + 1 : limit;
  }

  /** The first key >= the query (bytes order). */
  private lowerBound(n: number): number {
    let lo = 0;
    let hi = this.keyOffsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareKey(mid, n) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first key from `lo` on that does not start with the query: galloping, as most ranges are short. */
  private prefixEnd(lo: number, n: number): number {
    const keyCount = this.keyOffsets.length - 1;
    if (lo >= keyCount || !this.startsWithQuery(lo, n)) return lo;
    // Keys lo..a-1 start with the query; b is past the range (or the end).
    let a = lo + 1;
    let step = 1;
    let b = a;
    while (b < keyCount && this.startsWithQuery(b, n)) {
      a = b + 1;
      step *= 2;
      b = lo + step;
    }
    if (b > keyCount) b = keyCount;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.startsWithQuery(mid, n)) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  private startsWithQuery(key: number, n: number): boolean {
    const start = this.keyOffsets[key]!;
    if (this.keyOffsets[key + 1]! - start < n) return false;
    const bytes = this.keyBytes;
    const query = this.query;
    for (let i = 0; i < n; i++) if (bytes[start + i] !== query[i]) return false;
    return true;
  }

  /** Key `key` against the query, by bytes: negative, zero or positive. */
  private compareKey(key: number, n: number): number {
    const start = this.keyOffsets[key]!;
    const length = this.keyOffsets[key + 1]! - start;
    const bytes = this.keyBytes;
    const query = this.query;
    const m = length < n ? length : n;
    for (let i = 0; i < m; i++) {
      const d = bytes[start + i]! - query[i]!;
      if (d !== 0) return d;
    }
    return length - n;
  }
}
