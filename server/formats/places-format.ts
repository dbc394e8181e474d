// generated/places.bin: the one definition of the places table. Written by
// scripts/places/build-places.ts, read by server/places/place-table.ts. Little-endian;
// every section is a typed-array view into the mapped file, so a reader copies nothing
// but the short string lists (zones, countries, regions).
//
//   header (64 bytes)        magic "ZTPLACES", u16 major, u16 minor, then u32 counts:
//                            placeCount, keyCount, keyBytes, postingCount, heavyCount,
//                            heavyEntryCount, foldCount, foldBytes, nameBytes, zoneCount,
//                            countryCount, admin1Count, stringBytes
//   u32[placeCount]          GeoNames id (the place's stable id)
//   i32[placeCount] x 2      latitude, longitude, degrees times 1e5 (GeoNames' precision)
//   u32[placeCount]          population
//   u32[placeCount+1]        start of each place's name in the name bytes, then the end
//   u32[keyCount+1]          start of each search key in the key bytes, then the end
//   u32[keyCount+1]          start of each key's postings, then the end
//   u32[postingCount]        place index << 1 | 1 where the key starts the name (not a later word)
//   u32[heavyCount*2]        prefixes with many postings: first key index, prefix byte length;
//                            by group (the whole table, then each country), ascending in each
//   u32[heavyCount+1]        start of each heavy prefix's best places, then the end
//   u32[heavyEntryCount]     place indexes, best first (at most MAX_LIMIT per prefix)
//   u32[countryCount+2]      start of each heavy group (group 0: the whole table, its
//                            postings counted; group 1+c: country c, its own postings
//                            counted), then the end
//   u32[countryCount+1]      start of each country's slice of the country postings, then the end
//   u32[postingCount]        country postings: every posting's index, grouped by its place's
//                            country, ascending within a country; a prefix's postings in one
//                            country are one run of it (postings are stored in key order)
//   u32[foldCount+1]         start of each folded character's bytes, then the end
//   u32[stringCount+1]       string offsets (string-table.ts), then its end
//   u16[placeCount] x 3      zone, country, admin1 (NO_ADMIN1: none) indexes into the strings
//   u16[foldCount]           the BMP code points that fold to something else, ascending
//   u8[nameBytes]            names, UTF-8
//   u8[keyBytes]             search keys: folded names and every later word start of them
//                            ("new york city", "york city", "city"), sorted by bytes
//   u8[foldBytes]            what each listed code point folds to, UTF-8 (possibly nothing)
//   u8[stringBytes]          zones, country codes, country names, region names, metadata JSON
//
// Places are stored best first (population, capitals weighed up), so a place's index is
// its rank: search compares integers, never populations. A query restricted to a country
// reads that country's run of postings (or its own precomputed list), never the others'.
//
// Versions: 2.0 added the heavy groups and the country postings (1.x had neither).

import { encodeStrings, readStrings, writeStrings } from "./string-table.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const PLACES_FILE = "places.bin";
export const PLACES_TABLE: TableKind = { magic: "ZTPLACES", major: 2, minor: 0, what: "places table" };
export const NO_ADMIN1 = 0xffff;
/** The most places one search answers. */
export const MAX_LIMIT = 50;
/** A posting's low bit: the key is the whole name's start, not a later word. */
export const POSTING_FULL = 1;

export interface PlacesTableInput {
  ids: Uint32Array;
  lat5: Int32Array;
  lon5: Int32Array;
  population: Uint32Array;
  nameOffsets: Uint32Array;
  nameBytes: Uint8Array;
  keyOffsets: Uint32Array;
  keyBytes: Uint8Array;
  postingStarts: Uint32Array;
  postings: Uint32Array;
  heavy: Uint32Array;
  heavyStarts: Uint32Array;
  heavyEntries: Uint32Array;
  /** u32[countryCount+2]: heavy prefix index where each group starts (0: all, 1+c: country c), then the end. */
  heavyGroupStarts: Uint32Array;
  /** u32[countryCount+1]: start of each country's run in countryPostings, then the end. */
  countryPostingStarts: Uint32Array;
  /** u32[postingCount]: posting indexes grouped by country, ascending in each. */
  countryPostings: Uint32Array;
  foldCodes: Uint16Array;
  foldOffsets: Uint32Array;
  foldBytes: Uint8Array;
  zone: Uint16Array;
  country: Uint16Array;
  admin1: Uint16Array;
  zones: string[];
  countryCodes: string[];
  countryNames: string[];
  admin1Names: string[];
  metadata: Record<string, unknown>;
}

export type PlacesTableData = PlacesTableInput;

const COUNT_KEYS = ["placeCount", "keyCount", "keyBytes", "postingCount", "heavyCount", "heavyEntryCount", "foldCount",
  "foldBytes", "nameBytes", "zoneCount", "countryCount", "admin1Count", "stringBytes"] as const;
type Counts = Record<(typeof COUNT_KEYS)[number], number>;

function layout(c: Counts) {
  const p = c.placeCount;
  const stringCount = c.zoneCount + 2 * c.countryCount + c.admin1Count + 1;
  const ids = HEADER_BYTES;
  const lat5 = ids + 4 * p;
  const lon5 = lat5 + 4 * p;
  const population = lon5 + 4 * p;
  const nameOffsets = population + 4 * p;
  const keyOffsets = nameOffsets + 4 * (p + 1);
  const postingStarts = keyOffsets + 4 * (c.keyCount + 1);
  const postings = postingStarts + 4 * (c.keyCount + 1);
  const heavy = postings + 4 * c.postingCount;
  const heavyStarts = heavy + 8 * c.heavyCount;
  const heavyEntries = heavyStarts + 4 * (c.heavyCount + 1);
  const heavyGroupStarts = heavyEntries + 4 * c.heavyEntryCount;
  const countryPostingStarts = heavyGroupStarts + 4 * (c.countryCount + 2);
  const countryPostings = countryPostingStarts + 4 * (c.countryCount + 1);
  const foldOffsets = countryPostings + 4 * c.postingCount;
  const stringOffsets = foldOffsets + 4 * (c.foldCount + 1);
  const zone = stringOffsets + 4 * (stringCount + 1);
  const country = zone + 2 * p;
  const admin1 = country + 2 * p;
  const foldCodes = admin1 + 2 * p;
  const nameBytes = foldCodes + 2 * c.foldCount;
  const keyBytes = nameBytes + c.nameBytes;
  const foldBytes = keyBytes + c.keyBytes;
  const blob = foldBytes + c.foldBytes;
  return {
    stringCount, ids, lat5, lon5, population, nameOffsets, keyOffsets, postingStarts, postings, heavy, heavyStarts, heavyEntries,
    heavyGroupStarts, countryPostingStarts, countryPostings, foldOffsets, stringOffsets, zone, country, admin1, foldCodes, nameBytes, keyBytes, foldBytes, blob, total: blob + c.stringBytes,
  };
}

export function encodePlacesTable(input: PlacesTableInput): Uint8Array {
  const strings = encodeStrings([...input.zones, ...input.countryCodes, ...input.countryNames, ...input.admin1Names, JSON.stringify(input.metadata)]);
  const counts: Counts = {
    placeCount: input.ids.length,
    keyCount: input.keyOffsets.length - 1,
    keyBytes: input.keyBytes.length,
    postingCount: input.postings.length,
    heavyCount: input.heavy.length / 2,
    heavyEntryCount: input.heavyEntries.length,
    foldCount: input.foldCodes.length,
    foldBytes: input.foldBytes.length,
    nameBytes: input.nameBytes.length,
    zoneCount: input.zones.length,
    countryCount: input.countryCodes.length,
    admin1Count: input.admin1Names.length,
    stringBytes: strings.bytes,
  };
  // Their lengths follow from the counts, so the header does not carry them.
  if (input.heavyGroupStarts.length !== counts.countryCount + 2 || input.countryPostingStarts.length !== counts.countryCount + 1 ||
    input.countryPostings.length !== counts.postingCount) {
    throw new Error("places table: heavy groups or country postings do not match the countries and postings");
  }
  const at = layout(counts);
  const buffer = new ArrayBuffer(at.total);
  const view = writeHeader(buffer, PLACES_TABLE);
  COUNT_KEYS.forEach((k, i) => view.setUint32(12 + 4 * i, counts[k], true));
  const put = (Kind: Uint32ArrayConstructor | Int32ArrayConstructor | Uint16ArrayConstructor | Uint8ArrayConstructor, at: number, source: ArrayLike<number>) =>
    new Kind(buffer, at, source.length).set(source);
  put(Uint32Array, at.ids, input.ids);
  put(Int32Array, at.lat5, input.lat5);
  put(Int32Array, at.lon5, input.lon5);
  put(Uint32Array, at.population, input.population);
  put(Uint32Array, at.nameOffsets, input.nameOffsets);
  put(Uint32Array, at.keyOffsets, input.keyOffsets);
  put(Uint32Array, at.postingStarts, input.postingStarts);
  put(Uint32Array, at.postings, input.postings);
  put(Uint32Array, at.heavy, input.heavy);
  put(Uint32Array, at.heavyStarts, input.heavyStarts);
  put(Uint32Array, at.heavyEntries, input.heavyEntries);
  put(Uint32Array, at.heavyGroupStarts, input.heavyGroupStarts);
  put(Uint32Array, at.countryPostingStarts, input.countryPostingStarts);
  put(Uint32Array, at.countryPostings, input.countryPostings);
  put(Uint32Array, at.foldOffsets, input.foldOffsets);
  writeStrings(buffer, at.stringOffsets, at.blob, strings);
  put(Uint16Array, at.zone, input.zone);
  put(Uint16Array, at.country, input.country);
  put(Uint16Array, at.admin1, input.admin1);
  put(Uint16Array, at.foldCodes, input.foldCodes);
  put(Uint8Array, at.nameBytes, input.nameBytes);
  put(Uint8Array, at.keyBytes, input.keyBytes);
  put(Uint8Array, at.foldBytes, input.foldBytes);
  return new Uint8Array(buffer);
}

/** Reads and validates a places.bin image (any ArrayBuffer, e.g. a read-only mapping). */
export function decodePlacesTable(buffer: ArrayBuffer, file: string): PlacesTableData {
  const { view, fail, checkLength } = openTable(buffer, file, PLACES_TABLE);
  const counts = Object.fromEntries(COUNT_KEYS.map((k, i) => [k, view.getUint32(12 + 4 * i, true)])) as Counts;
  const at = layout(counts);
  // The counts are untrusted until the length agrees: checked before any view is made.
  if (!Number.isSafeInteger(at.total)) fail("counts out of range");
  checkLength(at.total);
  const strings = readStrings(buffer, at.stringOffsets, at.blob, at.stringCount, counts.stringBytes, fail);
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(strings[at.stringCount - 1]!) as Record<string, unknown>;
  } catch {
    fail("source metadata is not JSON");
  }
  const p = counts.placeCount;
  const z = counts.zoneCount;
  const c = counts.countryCount;
  const data: PlacesTableData = {
    ids: new Uint32Array(buffer, at.ids, p),
    lat5: new Int32Array(buffer, at.lat5, p),
    lon5: new Int32Array(buffer, at.lon5, p),
    population: new Uint32Array(buffer, at.population, p),
    nameOffsets: new Uint32Array(buffer, at.nameOffsets, p + 1),
    nameBytes: new Uint8Array(buffer, at.nameBytes, counts.nameBytes),
    keyOffsets: new Uint32Array(buffer, at.keyOffsets, counts.keyCount + 1),
    keyBytes: new Uint8Array(buffer, at.keyBytes, counts.keyBytes),
    postingStarts: new Uint32Array(buffer, at.postingStarts, counts.keyCount + 1),
    postings: new Uint32Array(buffer, at.postings, counts.postingCount),
    heavy: new Uint32Array(buffer, at.heavy, 2 * counts.heavyCount),
    heavyStarts: new Uint32Array(buffer, at.heavyStarts, counts.heavyCount + 1),
    heavyEntries: new Uint32Array(buffer, at.heavyEntries, counts.heavyEntryCount),
    heavyGroupStarts: new Uint32Array(buffer, at.heavyGroupStarts, c + 2),
    countryPostingStarts: new Uint32Array(buffer, at.countryPostingStarts, c + 1),
    countryPostings: new Uint32Array(buffer, at.countryPostings, counts.postingCount),
    foldCodes: new Uint16Array(buffer, at.foldCodes, counts.foldCount),
    foldOffsets: new Uint32Array(buffer, at.foldOffsets, counts.foldCount + 1),
    foldBytes: new Uint8Array(buffer, at.foldBytes, counts.foldBytes),
    zone: new Uint16Array(buffer, at.zone, p),
    country: new Uint16Array(buffer, at.country, p),
    admin1: new Uint16Array(buffer, at.admin1, p),
    zones: strings.slice(0, z),
    countryCodes: strings.slice(z, z + c),
    countryNames: strings.slice(z + c, z + 2 * c),
    admin1Names: strings.slice(z + 2 * c, at.stringCount - 1),
    metadata,
  };
  validateReferences(data, fail);
  return data;
}

/** Every offset and index points inside its section, so a search never reads past an array. */
function validateReferences(d: PlacesTableData, fail: (reason: string) => never): void {
  const p = d.ids.length;
  const ascending = (offsets: Uint32Array, end: number, what: string) => {
    if (offsets[0] !== 0 || offsets[offsets.length - 1] !== end) fail(`${what} do not span their section`);
    for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]!) fail(`${what} are not ascending at ${i}`);
  };
  ascending(d.nameOffsets, d.nameBytes.length, "name offsets");
  ascending(d.keyOffsets, d.keyBytes.length, "key offsets");
  ascending(d.postingStarts, d.postings.length, "posting starts");
  ascending(d.heavyStarts, d.heavyEntries.length, "heavy prefix starts");
  ascending(d.foldOffsets, d.foldBytes.length, "fold offsets");
  ascending(d.heavyGroupStarts, d.heavyStarts.length - 1, "heavy group starts");
  ascending(d.countryPostingStarts, d.countryPostings.length, "country posting starts");
  for (let i = 0; i < d.postings.length; i++) if (d.postings[i]! >>> 1 >= p) fail(`posting ${i} names a place out of range`);
  for (let i = 0; i < d.heavyEntries.length; i++) if (d.heavyEntries[i]! >= p) fail(`heavy entry ${i} names a place out of range`);
  const keyCount = d.keyOffsets.length - 1;
  for (let h = 0; h < d.heavy.length; h += 2) {
    const key = d.heavy[h]!;
    if (key >= keyCount || d.heavy[h + 1]! > d.keyOffsets[key + 1]! - d.keyOffsets[key]!) fail(`heavy prefix ${h >> 1} is out of range`);
  }
  // Each country's run: its own places' postings, ascending (the search's binary search needs it).
  for (let c = 0; c + 1 < d.countryPostingStarts.length; c++) {
    for (let e = d.countryPostingStarts[c]!; e < d.countryPostingStarts[c + 1]!; e++) {
      const posting = d.countryPostings[e]!;
      if (posting >= d.postings.length || (e > d.countryPostingStarts[c]! && posting <= d.countryPostings[e - 1]!)) {
        fail(`country posting ${e} is out of range or order`);
      }
      if (d.country[d.postings[posting]! >>> 1] !== c) fail(`country posting ${e} is another country's`);
    }
  }
  for (let i = 1; i < d.foldCodes.length; i++) if (d.foldCodes[i]! <= d.foldCodes[i - 1]!) fail("fold code points are not ascending");
  for (let i = 0; i < p; i++) {
    if (d.zone[i]! >= d.zones.length || d.country[i]! >= d.countryCodes.length || (d.admin1[i]! !== NO_ADMIN1 && d.admin1[i]! >= d.admin1Names.length)) {
      fail(`place ${i} names a zone, country or region out of range`);
    }
  }
}
