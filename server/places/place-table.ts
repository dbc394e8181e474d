// Places by name, from generated/places.bin (format: formats/places-format.ts), mapped
// read-only and shared by the workers. A query is folded (query-fold.ts), its prefix range
// found in the front-coded sorted keys (formats/key-blocks.ts), and the best places of
// that range taken: from the table's precomputed list where the range is large (a
// one-letter prefix), by a scan of the range otherwise. With a country, the country's own
// list for the prefix answers if it has one; else the range narrows to that country's run
// of postings (a binary search over the run's samples, then a read on): other countries'
// places are never read. The work reads typed arrays and writes into fields and buffers
// owned by the table; only the answer's objects are allocated.

import { KeyBlockIndex } from "../formats/key-blocks.ts";
import { mapTable } from "../formats/map-table.ts";
import { COUNTRY_SAMPLE, decodePlacesTable, MAX_LIMIT, NAME_SAMPLE, NO_ADMIN1, POSTING_FULL, type PlacesTableData } from "../formats/places-format.ts";
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
/** A country's runs with more postings than this are answered from its own precomputed lists (fewer lists: the table stays small). */
export const COUNTRY_HEAVY_POSTINGS = 128;
// Rank of a candidate: tier (exact name 3, exact later words 2, name prefix 1, later-word
// prefix 0) above the place's index (places are stored best first).
const TIER_SHIFT = 22;
const INDEX_MASK = (1 << TIER_SHIFT) - 1;

export class PlaceTable {
  readonly data: PlacesTableData;
  readonly metadata: Record<string, unknown>;
  private readonly fold: FoldMap;
  /** The search keys; tests and the build read keys and their posting runs through it. */
  readonly keys: KeyBlockIndex;
  private readonly postings: Uint8Array;
  private readonly country: Uint8Array;
  private readonly heavyGroupStarts: Uint32Array;
  private readonly countryPostingStarts: Uint32Array;
  private readonly countryPostings: Uint8Array;
  private readonly countryPostingBytes: Uint32Array;
  private readonly countrySamples: Uint32Array;
  private countryValue = 0;
  private countryAt = 0;
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
    this.keys = new KeyBlockIndex(data.keys);
    this.postings = data.postings;
    this.country = data.country;
    this.heavyGroupStarts = data.heavyGroupStarts;
    this.countryPostingStarts = data.countryPostingStarts;
    this.countryPostings = data.countryPostings;
    this.countryPostingBytes = data.countryPostingBytes;
    this.countrySamples = data.countrySamples;
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

  /**
   * The best places for the first `length` bytes of key `key`, in country `country` (an
   * index; -1: all), by a scan of its range: the build precomputes its lists with this.
   */
  rankedPrefix(key: number, length: number, limit: number, country = -1): number[] {
    this.query.set(this.keys.keyAt(key).subarray(0, length));
    this.collect(length, limit, country, false);
    return Array.from(this.found.subarray(0, this.count));
  }

  /** searchPlaces' place indexes by a scan of the whole range filtered by country, never the lists or the country index (the tests' reference). */
  scannedIndexes(query: string, options: SearchOptions = {}): number[] {
    const country = options.country === undefined ? -1 : this.countryIndex.get(options.country) ?? -2;
    const n = foldQuery(query, this.fold, this.query);
    if (n <= 0 || country === -2) return [];
    this.collect(n, Math.max(1, Math.min(MAX_LIMIT, options.limit ?? DEFAULT_LIMIT)), country, false, false);
    return Array.from(this.found.subarray(0, this.count));
  }

  /** The place at `index` (its rank), as the API answers it. */
  place(index: number): Place {
    const d = this.data;
    const admin1 = d.admin1[index]!;
    const c = d.country[index]!;
    // The name starts after the lengths of the names since the last stored start.
    let start = d.nameStarts[Math.floor(index / NAME_SAMPLE)]!;
    for (let i = index - (index % NAME_SAMPLE); i < index; i++) start += d.nameLengths[i]!;
    return {
      id: d.ids[index]!,
      name: this.names.toString("utf8", start, start + d.nameLengths[index]!),
      country: d.countryCodes[c]!,
      country_name: d.countryNames[c]!,
      admin1: admin1 === NO_ADMIN1 ? null : d.admin1Names[admin1]!,
      latitude: d.lat5[index]! / 1e5,
      longitude: d.lon5[index]! / 1e5,
      population: d.population[index]!,
      timezone: d.zones[d.zone[index]!]!,
    };
  }

  /**
   * The best places for the first `n` query bytes. `useLists`: answer a large range from its
   * precomputed list; `useCountryIndex`: with a country, read only that country's run of
   * postings. Without either, the whole range is scanned and filtered (the tests' reference);
   * every way visits a country's postings in the same order, so all answer the same.
   */
  private collect(n: number, limit: number, country: number, useLists = true, useCountryIndex = true): void {
    this.count = 0;
    const keys = this.keys;
    if (!keys.find(this.query, n)) return;
    const lo = keys.lo;
    const first = keys.loEntry;
    const end = keys.hiEntry;
    // Postings before this one belong to the key equal to the query (key lo, when it is exact).
    const exactEnd = keys.exactEnd;
    const postings = this.postings;
    if (country >= 0 && useCountryIndex) {
      // A prefix with a list of its own in this country (more than COUNTRY_HEAVY_POSTINGS
      // postings there) is answered from it: the list is what the scan below would find.
      if (useLists && this.fromList(1 + country, lo, n, limit)) return;
      const runEnd = this.countryPostingStarts[country + 1]!;
      const bytes = this.countryPostings;
      let e = this.seekCountry(country, first);
      let at = this.countryAt;
      let p = this.countryValue;
      while (e < runEnd && p < end) {
        const posting = postings[3 * p]! | (postings[3 * p + 1]! << 8) | (postings[3 * p + 2]! << 16);
        const index = posting >>> 1;
        this.offer((((p < exactEnd ? 2 : 0) + (posting & POSTING_FULL)) << TIER_SHIFT) | (INDEX_MASK - index), index, limit);
        if (++e >= runEnd) break;
        // The next one: a difference, or whole at a sample.
        let value = 0;
        for (let shift = 1; ; shift *= 128) {
          const byte = bytes[at++]!;
          value += (byte & 127) * shift;
          if (byte < 128) break;
        }
        p = e % COUNTRY_SAMPLE === 0 ? value : p + value;
      }
      return;
    }
    if (useLists && country < 0 && end - first > HEAVY_POSTINGS && this.fromList(0, lo, n, limit)) return;
    for (let p = first; p < end; p++) {
      const posting = postings[3 * p]! | (postings[3 * p + 1]! << 8) | (postings[3 * p + 2]! << 16);
      const index = posting >>> 1;
      if (country >= 0 && this.country[index] !== country) continue;
      this.offer((((p < exactEnd ? 2 : 0) + (posting & POSTING_FULL)) << TIER_SHIFT) | (INDEX_MASK - index), index, limit);
    }
  }

  /**
   * The first entry of country `c`'s run naming posting `posting` or a later one (the run's
   * end when none): a binary search over the run's samples, then a read on from the last
   * one below. Leaves the entry's posting in countryValue and the byte after it in countryAt.
   */
  private seekCountry(c: number, posting: number): number {
    const runStart = this.countryPostingStarts[c]!;
    const runEnd = this.countryPostingStarts[c + 1]!;
    if (runStart >= runEnd) return runEnd;
    // Samples strictly inside the run: a..b (the run's own start is whole too: "a - 1").
    const a = Math.floor(runStart / COUNTRY_SAMPLE) + 1;
    let lo = a - 1;
    let hi = Math.floor((runEnd - 1) / COUNTRY_SAMPLE);
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      this.readCountry(this.countrySamples[mid]!);
      if (this.countryValue < posting) lo = mid;
      else hi = mid - 1;
    }
    let e = lo >= a ? lo * COUNTRY_SAMPLE : runStart;
    this.readCountry(lo >= a ? this.countrySamples[lo]! : this.countryPostingBytes[c]!);
    while (this.countryValue < posting) {
      if (++e >= runEnd) return runEnd;
      const whole = e % COUNTRY_SAMPLE === 0;
      const previous = this.countryValue;
      this.readCountry(this.countryAt);
      if (!whole) this.countryValue += previous;
    }
    return e;
  }

  /** Reads the LEB128 number at byte `at` of the country postings into countryValue, the byte after it into countryAt. */
  private readCountry(at: number): void {
    const bytes = this.countryPostings;
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      const byte = bytes[at++]!;
      value += (byte & 127) * shift;
      if (byte < 128) break;
    }
    this.countryValue = value;
    this.countryAt = at;
  }

  /** From the precomputed best places of this exact prefix in heavy group `group` (0: all places, 1+c: country c); false when it has none. */
  private fromList(group: number, lo: number, n: number, limit: number): boolean {
    const heavy = this.data.heavy;
    let a = this.heavyGroupStarts[group]!;
    let b = this.heavyGroupStarts[group + 1]!;
    const end = b;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const key = heavy[2 * mid]!;
      if (key < lo || (key === lo && heavy[2 * mid + 1]! < n)) a = mid + 1;
      else b = mid;
    }
    if (a >= end || heavy[2 * a] !== lo || heavy[2 * a + 1] !== n) return false;
    // The list is the prefix's best MAX_LIMIT places in its group (all of them when fewer):
    // its first `limit` are the scan's answer.
    const entries = this.data.heavyEntries;
    const start = this.data.heavyStarts[a]!;
    const stop = Math.min(this.data.heavyStarts[a + 1]!, start + limit);
    for (let e = start; e < stop; e++) this.found[this.count++] = entries[3 * e]! | (entries[3 * e + 1]! << 8) | (entries[3 * e + 2]! << 16);
    return this.count > 0;
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
}
