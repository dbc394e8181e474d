// generated/places.bin: the one definition of the places table. Written by
// scripts/places/build-places.ts, read by server/places/place-table.ts. Little-endian;
// every section is a typed-array view into the mapped file, so a reader copies nothing
// but the short string lists (zones, countries, regions).
//
//   header (64 bytes)        magic "ZTPLACES", u16 major, u16 minor, then u32 counts:
//                            placeCount, keyCount, keyBlockBytes, postingCount, heavyCount,
//                            heavyEntryCount, foldCount, foldBytes, nameBytes, zoneCount,
//                            countryCount, admin1Count, stringBytes
//   u32                      countryPostingBytes (the header is full)
//   u32[placeCount]          GeoNames id (the place's stable id)
//   i32[placeCount] x 2      latitude, longitude, degrees times 1e5 (GeoNames' precision)
//   u32[placeCount]          population
//   u32[placeCount/16+1]     start of every NAME_SAMPLE-th place's name in the name bytes, then the end
//   u32[keyBlocks+1] x 2     the search keys' blocks (key-blocks.ts): each block's first byte,
//                            then its first posting; each then the end
//   u32[heavyCount*2]        prefixes with many postings: first key index, prefix byte length;
//                            by group (the whole table, then each country), ascending in each
//   u32[heavyCount+1]        start of each heavy prefix's best places, then the end
//   u32[countryCount+2]      start of each heavy group (group 0: the whole table, its
//                            postings counted; group 1+c: country c, its own postings
//                            counted), then the end
//   u32[countryCount+1]      start of each country's slice of the country postings, then the end
//   u32[countryCount+1]      the byte where each country's slice starts, then the end
//   u32[postingCount/32]     the byte of every COUNTRY_SAMPLE-th country posting
//   u32[foldCount+1]         start of each folded character's bytes, then the end
//   u32[stringCount+1]       string offsets (string-table.ts), then its end
//   u16[placeCount] x 2      zone, admin1 (NO_ADMIN1: none) indexes into the strings
//   u16[foldCount]           the BMP code points that fold to something else, ascending
//   u24[postingCount]        place index << 1 | 1 where the key starts the name (not a later word),
//                            each key's run names first, then later words, each by rank
//   u24[heavyEntryCount]     place indexes, best first (at most MAX_LIMIT per prefix)
//   u8[placeCount]           country index into the strings
//   u8[placeCount]           each place's name's length in bytes
//   u8[countryPostingBytes]  country postings: every posting's index, grouped by its place's
//                            country, ascending within a country (a prefix's postings in one
//                            country are one run of it: postings are stored in key order); each
//                            LEB128, the difference from the one before, but whole at a
//                            country's first and at every COUNTRY_SAMPLE-th
//   u8[nameBytes]            names, UTF-8
//   u8[keyBlockBytes]        search keys, front-coded (key-blocks.ts): folded names and every
//                            later word start of them ("new york city", "york city", "city"),
//                            sorted by bytes, with their posting counts
//   u8[foldBytes]            what each listed code point folds to, UTF-8 (possibly nothing)
//   u8[stringBytes]          zones, country codes, country names, region names, metadata JSON
//
// u24: three bytes, little-endian (place and posting indexes stay below 2^23: the writer
// checks). Places are stored best first (population, capitals weighed up), so a place's
// index is its rank: search compares integers, never populations. A query restricted to a
// country reads that country's run of postings (or its own precomputed list), never the
// others'.
//
// Versions: 2.0 added the heavy groups and the country postings (1.x had neither); 3.0
// front-coded the keys (no per-key offsets), narrowed postings and heavy entries to u24 and
// countries to u8, stored names' lengths instead of offsets and the country postings as
// differences: 20.6 MB to about 13.3 MB for the same answers.

import { checkCountryPostings, COUNTRY_SAMPLE, encodeCountryPostings } from "./country-postings.ts";
import { checkKeyBlocks, encodeKeyBlocks, KEY_BLOCK, MAX_KEY_BYTES, type KeyBlocks } from "./key-blocks.ts";
import { encodeStrings, readStrings, writeStrings } from "./string-table.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const PLACES_FILE = "places.bin";
export const PLACES_TABLE: TableKind = { magic: "ZTPLACES", major: 3, minor: 0, what: "places table" };
export const NO_ADMIN1 = 0xffff;
/** The most places one search answers. */
export const MAX_LIMIT = 50;
/** A posting's low bit: the key is the whole name's start, not a later word. */
export const POSTING_FULL = 1;
/** Postings and heavy entries are u24. */
const U24_LIMIT = 1 << 24;
/** Every NAME_SAMPLE-th place's name start is stored; the others add up the lengths since. */
export const NAME_SAMPLE = 16;
export { COUNTRY_SAMPLE, decodeCountryPostings } from "./country-postings.ts";

/** What the build hands the writer: the keys as plain sorted arrays, front-coded by the writer. */
export interface PlacesTableInput {
  ids: Uint32Array;
  lat5: Int32Array;
  lon5: Int32Array;
  population: Uint32Array;
  nameOffsets: Uint32Array;
  nameBytes: Uint8Array;
  /** u32[keyCount+1]: each key's start in keyBytes, then the end; keys sorted by bytes. */
  keyOffsets: Uint32Array;
  keyBytes: Uint8Array;
  /** u32[keyCount+1]: each key's first posting, then the end. */
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
  country: Uint8Array;
  admin1: Uint16Array;
  zones: string[];
  countryCodes: string[];
  countryNames: string[];
  admin1Names: string[];
  metadata: Record<string, unknown>;
}

/** The reader's views into the mapped file. The u24 arrays are bytes: read them with u24At. */
export interface PlacesTableData extends Omit<PlacesTableInput, "nameOffsets" | "keyOffsets" | "keyBytes" | "postingStarts" | "postings" | "heavyEntries" | "countryPostings"> {
  /** u32[ceil(placeCount/NAME_SAMPLE)+1]: where every NAME_SAMPLE-th place's name starts, then the end. */
  nameStarts: Uint32Array;
  nameLengths: Uint8Array;
  keys: KeyBlocks;
  postings: Uint8Array;
  heavyEntries: Uint8Array;
  /** LEB128 posting indexes: see the file comment; read them with CountryPostingReader. */
  countryPostings: Uint8Array;
  /** u32[countryCount+1]: the byte where each country's run starts, then the end. */
  countryPostingBytes: Uint32Array;
  /** u32[ceil(postingCount/COUNTRY_SAMPLE)]: the byte of every COUNTRY_SAMPLE-th country posting. */
  countrySamples: Uint32Array;
}

/** Entry `i` of a u24 array. */
export function u24At(bytes: Uint8Array, i: number): number {
  return bytes[3 * i]! | (bytes[3 * i + 1]! << 8) | (bytes[3 * i + 2]! << 16);
}

const COUNT_KEYS = ["placeCount", "keyCount", "keyBlockBytes", "postingCount", "heavyCount", "heavyEntryCount", "foldCount",
  "foldBytes", "nameBytes", "zoneCount", "countryCount", "admin1Count", "stringBytes"] as const;
/** The header's counts, and the one that follows it. */
type Counts = Record<(typeof COUNT_KEYS)[number] | "countryPostingBytes", number>;

function layout(c: Counts) {
  const p = c.placeCount;
  const stringCount = c.zoneCount + 2 * c.countryCount + c.admin1Count + 1;
  const blockCount = Math.ceil(c.keyCount / KEY_BLOCK);
  const nameSamples = Math.ceil(p / NAME_SAMPLE);
  const countrySamples = Math.ceil(c.postingCount / COUNTRY_SAMPLE);
  const ids = HEADER_BYTES + 4;
  const lat5 = ids + 4 * p;
  const lon5 = lat5 + 4 * p;
  const population = lon5 + 4 * p;
  const nameStarts = population + 4 * p;
  const blockStarts = nameStarts + 4 * (nameSamples + 1);
  const blockEntries = blockStarts + 4 * (blockCount + 1);
  const heavy = blockEntries + 4 * (blockCount + 1);
  const heavyStarts = heavy + 8 * c.heavyCount;
  const heavyGroupStarts = heavyStarts + 4 * (c.heavyCount + 1);
  const countryPostingStarts = heavyGroupStarts + 4 * (c.countryCount + 2);
  const countryPostingBytes = countryPostingStarts + 4 * (c.countryCount + 1);
  const countrySampleBytes = countryPostingBytes + 4 * (c.countryCount + 1);
  const foldOffsets = countrySampleBytes + 4 * countrySamples;
  const stringOffsets = foldOffsets + 4 * (c.foldCount + 1);
  const zone = stringOffsets + 4 * (stringCount + 1);
  const admin1 = zone + 2 * p;
  const foldCodes = admin1 + 2 * p;
  const postings = foldCodes + 2 * c.foldCount;
  const heavyEntries = postings + 3 * c.postingCount;
  const country = heavyEntries + 3 * c.heavyEntryCount;
  const nameLengths = country + p;
  const countryPostings = nameLengths + p;
  const nameBytes = countryPostings + c.countryPostingBytes;
  const keyBytes = nameBytes + c.nameBytes;
  const foldBytes = keyBytes + c.keyBlockBytes;
  const blob = foldBytes + c.foldBytes;
  return {
    stringCount, blockCount, nameSamples, countrySamples, ids, lat5, lon5, population, nameStarts, blockStarts, blockEntries, heavy, heavyStarts,
    heavyGroupStarts, countryPostingStarts, countryPostingBytes, countrySampleBytes, foldOffsets, stringOffsets, zone, admin1, foldCodes, postings,
    heavyEntries, country, nameLengths, countryPostings, nameBytes, keyBytes, foldBytes, blob, total: blob + c.stringBytes,
  };
}

function putU24(buffer: ArrayBuffer, at: number, values: ArrayLike<number>, what: string): void {
  const bytes = new Uint8Array(buffer, at, 3 * values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!(v >= 0 && v < U24_LIMIT)) throw new Error(`places table: ${what} ${i} (${v}) does not fit 24 bits`);
    bytes[3 * i] = v & 0xff;
    bytes[3 * i + 1] = (v >>> 8) & 0xff;
    bytes[3 * i + 2] = v >>> 16;
  }
}

export function encodePlacesTable(input: PlacesTableInput): Uint8Array {
  const strings = encodeStrings([...input.zones, ...input.countryCodes, ...input.countryNames, ...input.admin1Names, JSON.stringify(input.metadata)]);
  const keyCount = input.keyOffsets.length - 1;
  const keyList = Array.from({ length: keyCount }, (_, k) => input.keyBytes.subarray(input.keyOffsets[k]!, input.keyOffsets[k + 1]!));
  const counts = Array.from({ length: keyCount }, (_, k) => input.postingStarts[k + 1]! - input.postingStarts[k]!);
  const keys = encodeKeyBlocks(keyList, counts);
  const byCountry = encodeCountryPostings(input.countryPostingStarts, input.countryPostings);
  const c: Counts = {
    placeCount: input.ids.length,
    keyCount,
    keyBlockBytes: keys.bytes.length,
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
    countryPostingBytes: byCountry.bytes.length,
  };
  // Their lengths follow from the counts, so the header does not carry them.
  if (input.heavyGroupStarts.length !== c.countryCount + 2 || input.countryPostingStarts.length !== c.countryCount + 1 ||
    input.countryPostings.length !== c.postingCount || input.postingStarts[keyCount] !== c.postingCount) {
    throw new Error("places table: heavy groups, country postings or posting starts do not match the countries and postings");
  }
  if (c.countryCount > 0x100) throw new Error("places table: more countries than a u8 index holds");
  const at = layout(c);
  const buffer = new ArrayBuffer(at.total);
  const view = writeHeader(buffer, PLACES_TABLE);
  COUNT_KEYS.forEach((k, i) => view.setUint32(12 + 4 * i, c[k], true));
  view.setUint32(HEADER_BYTES, c.countryPostingBytes, true);
  const put = (Kind: Uint32ArrayConstructor | Int32ArrayConstructor | Uint16ArrayConstructor | Uint8ArrayConstructor, at: number, source: ArrayLike<number>) =>
    new Kind(buffer, at, source.length).set(source);
  put(Uint32Array, at.ids, input.ids);
  put(Int32Array, at.lat5, input.lat5);
  put(Int32Array, at.lon5, input.lon5);
  put(Uint32Array, at.population, input.population);
  const nameLengths = new Uint8Array(c.placeCount);
  const nameStarts = new Uint32Array(Math.ceil(c.placeCount / NAME_SAMPLE) + 1);
  for (let i = 0; i < c.placeCount; i++) {
    const length = input.nameOffsets[i + 1]! - input.nameOffsets[i]!;
    if (length > 0xff) throw new Error(`places table: name ${i} is ${length} bytes`);
    nameLengths[i] = length;
    if (i % NAME_SAMPLE === 0) nameStarts[i / NAME_SAMPLE] = input.nameOffsets[i]!;
  }
  nameStarts[nameStarts.length - 1] = input.nameOffsets[c.placeCount]!;
  put(Uint32Array, at.nameStarts, nameStarts);
  put(Uint32Array, at.blockStarts, keys.blockStarts);
  put(Uint32Array, at.blockEntries, keys.blockEntries);
  put(Uint32Array, at.heavy, input.heavy);
  put(Uint32Array, at.heavyStarts, input.heavyStarts);
  put(Uint32Array, at.heavyGroupStarts, input.heavyGroupStarts);
  put(Uint32Array, at.countryPostingStarts, input.countryPostingStarts);
  put(Uint32Array, at.countryPostingBytes, byCountry.starts);
  put(Uint32Array, at.countrySampleBytes, byCountry.samples);
  put(Uint32Array, at.foldOffsets, input.foldOffsets);
  writeStrings(buffer, at.stringOffsets, at.blob, strings);
  put(Uint16Array, at.zone, input.zone);
  put(Uint16Array, at.admin1, input.admin1);
  put(Uint16Array, at.foldCodes, input.foldCodes);
  putU24(buffer, at.postings, input.postings, "posting");
  putU24(buffer, at.heavyEntries, input.heavyEntries, "heavy entry");
  put(Uint8Array, at.country, input.country);
  put(Uint8Array, at.nameLengths, nameLengths);
  put(Uint8Array, at.countryPostings, byCountry.bytes);
  put(Uint8Array, at.nameBytes, input.nameBytes);
  put(Uint8Array, at.keyBytes, keys.bytes);
  put(Uint8Array, at.foldBytes, input.foldBytes);
  return new Uint8Array(buffer);
}

/** Reads and validates a places.bin image (any ArrayBuffer, e.g. a read-only mapping). */
export function decodePlacesTable(buffer: ArrayBuffer, file: string): PlacesTableData {
  const { view, fail, checkLength } = openTable(buffer, file, PLACES_TABLE);
  if (buffer.byteLength < HEADER_BYTES + 4) fail(`truncated: ${buffer.byteLength} bytes is shorter than the header and its count`);
  const counts = { ...Object.fromEntries(COUNT_KEYS.map((k, i) => [k, view.getUint32(12 + 4 * i, true)])), countryPostingBytes: view.getUint32(HEADER_BYTES, true) } as Counts;
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
    nameStarts: new Uint32Array(buffer, at.nameStarts, at.nameSamples + 1),
    nameLengths: new Uint8Array(buffer, at.nameLengths, p),
    nameBytes: new Uint8Array(buffer, at.nameBytes, counts.nameBytes),
    keys: {
      keyCount: counts.keyCount,
      blockStarts: new Uint32Array(buffer, at.blockStarts, at.blockCount + 1),
      blockEntries: new Uint32Array(buffer, at.blockEntries, at.blockCount + 1),
      bytes: new Uint8Array(buffer, at.keyBytes, counts.keyBlockBytes),
    },
    postings: new Uint8Array(buffer, at.postings, 3 * counts.postingCount),
    heavy: new Uint32Array(buffer, at.heavy, 2 * counts.heavyCount),
    heavyStarts: new Uint32Array(buffer, at.heavyStarts, counts.heavyCount + 1),
    heavyEntries: new Uint8Array(buffer, at.heavyEntries, 3 * counts.heavyEntryCount),
    heavyGroupStarts: new Uint32Array(buffer, at.heavyGroupStarts, c + 2),
    countryPostingStarts: new Uint32Array(buffer, at.countryPostingStarts, c + 1),
    countryPostings: new Uint8Array(buffer, at.countryPostings, counts.countryPostingBytes),
    countryPostingBytes: new Uint32Array(buffer, at.countryPostingBytes, c + 1),
    countrySamples: new Uint32Array(buffer, at.countrySampleBytes, at.countrySamples),
    foldCodes: new Uint16Array(buffer, at.foldCodes, counts.foldCount),
    foldOffsets: new Uint32Array(buffer, at.foldOffsets, counts.foldCount + 1),
    foldBytes: new Uint8Array(buffer, at.foldBytes, counts.foldBytes),
    zone: new Uint16Array(buffer, at.zone, p),
    country: new Uint8Array(buffer, at.country, p),
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
  const postingCount = d.postings.length / 3;
  const ascending = (offsets: Uint32Array, end: number, what: string) => {
    if (offsets[0] !== 0 || offsets[offsets.length - 1] !== end) fail(`${what} do not span their section`);
    for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]!) fail(`${what} are not ascending at ${i}`);
  };
  ascending(d.nameStarts, d.nameBytes.length, "name starts");
  for (let s = 0; s + 1 < d.nameStarts.length; s++) {
    let end = d.nameStarts[s]!;
    for (let i = s * NAME_SAMPLE; i < Math.min(p, (s + 1) * NAME_SAMPLE); i++) end += d.nameLengths[i]!;
    if (end !== d.nameStarts[s + 1]) fail(`name lengths from place ${s * NAME_SAMPLE} do not add up to the next start`);
  }
  checkKeyBlocks(d.keys, postingCount, fail);
  ascending(d.heavyStarts, d.heavyEntries.length / 3, "heavy prefix starts");
  ascending(d.foldOffsets, d.foldBytes.length, "fold offsets");
  ascending(d.heavyGroupStarts, d.heavyStarts.length - 1, "heavy group starts");
  ascending(d.countryPostingStarts, postingCount, "country posting starts");
  for (let i = 0; i < postingCount; i++) if (u24At(d.postings, i) >>> 1 >= p) fail(`posting ${i} names a place out of range`);
  for (let i = 0; i < d.heavyEntries.length / 3; i++) if (u24At(d.heavyEntries, i) >= p) fail(`heavy entry ${i} names a place out of range`);
  for (let h = 0; h < d.heavy.length; h += 2) {
    const length = d.heavy[h + 1]!;
    if (d.heavy[h]! >= d.keys.keyCount || length < 1 || length > MAX_KEY_BYTES) fail(`heavy prefix ${h >> 1} is out of range`);
  }
  for (let i = 1; i < d.foldCodes.length; i++) if (d.foldCodes[i]! <= d.foldCodes[i - 1]!) fail("fold code points are not ascending");
  for (let i = 0; i < p; i++) {
    if (d.zone[i]! >= d.zones.length || d.country[i]! >= d.countryCodes.length || (d.admin1[i]! !== NO_ADMIN1 && d.admin1[i]! >= d.admin1Names.length)) {
      fail(`place ${i} names a zone, country or region out of range`);
    }
  }
  // Each country's run: its own places' postings, ascending (the search's binary search needs it).
  checkCountryPostings(d, postingCount, (posting) => d.country[u24At(d.postings, posting) >>> 1]!, fail);
}
