// generated/names.bin: the one definition of the names table (CLDR's localized zone,
// metazone and country names, the metazone periods, zone.tab by country and the
// /timezone?q= index). Written by scripts/names/build-names.ts, read by server/names/.
// Little-endian.
//
//   header (64 bytes)        magic "ZTNAMES\0", u16 major, u16 minor, u32 sectionCount,
//                            u32 stringCount, u32 stringBytes, u32 totalBytes, then zeros
//   u32[2 * sectionCount]    each section's byte offset and its length in i32s
//   i32[...] sections        what each holds is NamesSection's comment below
//   u32[stringCount + 1]     string offsets into the UTF-8 blob, then its end
//   u8[stringBytes]          the strings (string 0 is "", which stands for "none")
//
// Strings are decoded only when asked for (the table holds some 300k of them, and a
// worker touches few), and the search keys are compared as bytes, without decoding.

import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const NAMES_FILE = "names.bin";
export const NAMES_FORMAT_MAJOR = 1;
export const NAMES_FORMAT_MINOR = 0;
const KIND: TableKind = { magic: "ZTNAMES\0", major: NAMES_FORMAT_MAJOR, minor: NAMES_FORMAT_MINOR, what: "names table" };

/** The sections, in file order. Strings are named by their index in the string section. */
export const NamesSection = {
  /** [localeCount, slotsPerLocale, metazoneCount, zoneCount, specificZoneCount, regionCount, metadata string]. */
  Meta: 0,
  /** Per locale, its tag as CLDR spells it ("de-AT", "zh-Hant"), sorted by the tag's lower case. */
  LocaleTags: 1,
  /** Per locale, slotsPerLocale string ids (0: CLDR has none); the layout is NameSlot's. */
  Slots: 2,
  /** Per metazone, its CLDR id ("America_Pacific"). */
  MetazoneIds: 3,
  /** Per CLDR canonical zone, its id as CLDR spells it ("Asia/Calcutta"). */
  ZoneIds: 4,
  /** Per zone ZONE_INFO_INTS: region index or -1, primary (1/0), specific index or -1, first period, period count, IANA name string. */
  ZoneInfo: 5,
  /** Per metazone period PERIOD_INTS: from and to in minutes since 1970 (INT32 min/max: open), metazone index. */
  MzPeriods: 6,
  /** Per metazone: first pair, pair count in GoldenPairs. */
  Golden: 7,
  /** [region index (-1: 001), zone index] pairs: the metazone's reference zone per territory. */
  GoldenPairs: 8,
  /** Per region, its code ("DE", "419"). */
  RegionCodes: 9,
  /** [name string, zone index] for every tz name and CLDR alias, sorted by name. */
  NameMap: 10,
  /** Per country of iso3166.tab: [region index, first, count] into CountryZoneNames. */
  CountryZones: 11,
  /** zone.tab's names, sorted within each country. */
  CountryZoneNames: 12,
  /** [folded key string, first, count] sorted by the key's UTF-8 bytes. */
  SearchKeys: 13,
  /** Name strings, best first within each key's run. */
  SearchResults: 14,
} as const;
export const SECTION_COUNT = 15;
export const ZONE_INFO_INTS = 6;
export const PERIOD_INTS = 3;
export const OPEN_START = -0x80000000;
export const OPEN_END = 0x7fffffff;

/** Per locale: the formats, then the metazone names, exemplar cities, zone-specific names and region names. */
export const FormatSlot = {
  HourFormat: 0, GmtFormat: 1, GmtZeroFormat: 2, RegionFormat: 3, RegionFormatStandard: 4,
  RegionFormatDaylight: 5, FallbackFormat: 6, Digits: 7, TargetRegion: 8,
} as const;
export const FORMAT_SLOTS = 9;
/** The six names of a metazone or a zone, in this order. */
export const NAME_KINDS = ["generic_long", "standard_long", "daylight_long", "generic_short", "standard_short", "daylight_short"] as const;
export type NameKind = (typeof NAME_KINDS)[number];

export interface NamesInput {
  sections: Int32Array[];
  strings: string[];
}

export interface NamesData {
  sections: Int32Array[];
  stringOffsets: Uint32Array;
  /** The UTF-8 blob the offsets point into. */
  blob: Uint8Array;
  stringCount: number;
}

export function encodeNames(input: NamesInput): Uint8Array {
  if (input.sections.length !== SECTION_COUNT) throw new Error(`names table: ${input.sections.length} sections, not ${SECTION_COUNT}`);
  const encoder = new TextEncoder();
  const encoded = input.strings.map((s) => encoder.encode(s));
  const stringBytes = encoded.reduce((n, b) => n + b.length, 0);
  let at = HEADER_BYTES + 8 * SECTION_COUNT;
  const sectionAt = input.sections.map((s) => {
    const here = at;
    at += 4 * s.length;
    return here;
  });
  const offsetsAt = at;
  const blobAt = offsetsAt + 4 * (encoded.length + 1);
  const total = blobAt + stringBytes;
  const buffer = new ArrayBuffer(total);
  const view = writeHeader(buffer, KIND);
  [SECTION_COUNT, encoded.length, stringBytes, total].forEach((v, i) => view.setUint32(12 + 4 * i, v, true));
  input.sections.forEach((s, i) => {
    view.setUint32(HEADER_BYTES + 8 * i, sectionAt[i]!, true);
    view.setUint32(HEADER_BYTES + 8 * i + 4, s.length, true);
    new Int32Array(buffer, sectionAt[i]!, s.length).set(s);
  });
  const offsets = new Uint32Array(buffer, offsetsAt, encoded.length + 1);
  const bytes = new Uint8Array(buffer);
  let cursor = 0;
  encoded.forEach((b, i) => {
    offsets[i] = cursor;
    bytes.set(b, blobAt + cursor);
    cursor += b.length;
  });
  offsets[encoded.length] = cursor;
  return bytes;
}

/** Views into `buffer` (no copy); checks every length and offset, and every string id a section holds. */
export function decodeNames(buffer: ArrayBuffer, file: string): NamesData {
  const { view, fail, checkLength } = openTable(buffer, file, KIND);
  const [sectionCount, stringCount, stringBytes, total] = [0, 1, 2, 3].map((i) => view.getUint32(12 + 4 * i, true)) as [number, number, number, number];
  checkLength(total);
  if (sectionCount !== SECTION_COUNT) fail(`${sectionCount} sections where this build reads ${SECTION_COUNT}`);
  const sections: Int32Array[] = [];
  let end = HEADER_BYTES + 8 * SECTION_COUNT;
  for (let i = 0; i < SECTION_COUNT; i++) {
    const at = view.getUint32(HEADER_BYTES + 8 * i, true);
    const length = view.getUint32(HEADER_BYTES + 8 * i + 4, true);
    if (at !== end || at + 4 * length > total) fail(`section ${i} lies outside the file`);
    sections.push(new Int32Array(buffer, at, length));
    end = at + 4 * length;
  }
  const blobAt = end + 4 * (stringCount + 1);
  if (blobAt + stringBytes !== total) fail("the string section's length does not match the header");
  const stringOffsets = new Uint32Array(buffer, end, stringCount + 1);
  for (let i = 0; i < stringCount; i++) {
    if (stringOffsets[i + 1]! < stringOffsets[i]!) fail(`string ${i} lies outside the string section`);
  }
  if (stringOffsets[0] !== 0 || stringOffsets[stringCount] !== stringBytes) fail("the string offsets do not span the string section");
  const meta = sections[NamesSection.Meta]!;
  if (meta.length < 7) fail("the meta section is short");
  const [locales, slotsPerLocale] = [meta[0]!, meta[1]!];
  if (sections[NamesSection.Slots]!.length !== locales * slotsPerLocale) fail("the slot section does not match its locale count");
  for (const s of [NamesSection.LocaleTags, NamesSection.Slots, NamesSection.MetazoneIds, NamesSection.ZoneIds, NamesSection.RegionCodes, NamesSection.CountryZoneNames, NamesSection.SearchResults]) {
    for (const id of sections[s]!) if (id < 0 || id >= stringCount) fail(`section ${s} names string ${id}, which does not exist`);
  }
  return { sections, stringOffsets, blob: new Uint8Array(buffer, blobAt, stringBytes), stringCount };
}
