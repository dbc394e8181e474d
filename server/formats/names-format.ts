// generated/names.bin: the one definition of the names table (CLDR's localized zone,
// metazone and country names, the metazone periods, zone.tab by country and the
// /timezone?q= index). Written by scripts/names/build-names.ts, read by server/names/.
// Little-endian.
//
//   header (64 bytes)        magic "ZTNAMES\0", u16 major, u16 minor, u32 sectionCount,
//                            u32 stringCount, u32 stringBytes, u32 totalBytes,
//                            u32 searchKeyBytes, u32 slotIndexCount, then zeros
//   u32[2 * sectionCount]    each section's byte offset and its length in i32s
//   i32[...] sections        what each holds is NamesSection's comment below
//   u32[stringCount + 1]     string offsets into the UTF-8 blob, then its end
//   u8[stringBytes]          the strings (string 0 is "", which stands for "none")
//   u8[searchKeyBytes]       the /timezone?q= keys, front-coded (key-blocks.ts)
//   (a zero byte when needed to align the next part)
//   u16[slotIndexCount]      per locale, for each SLOT_BLOCK slots, the block of SlotBlocks
//                            that holds their string ids
//
// A locale's slots are stored by blocks of SLOT_BLOCK, each distinct block once: a regional
// locale repeats its parent's names nearly everywhere (CLDR's inheritance, resolved at build
// time), and most locales have none for most metazones, so 766 locales' 1.47 million slots
// take some 20,000 distinct blocks. Strings are decoded only when asked for (the table
// holds some 110k of them, and a worker touches few), and the search keys are compared as
// bytes, without decoding.
//
// Versions: 2.0 stored the slots by distinct blocks (1.x: a u32 per slot) and the search
// keys front-coded (1.x: strings of the string section): 12.3 MB to about 6.4 MB.

import { checkKeyBlocks, type KeyBlocks } from "./key-blocks.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const NAMES_FILE = "names.bin";
export const NAMES_FORMAT_MAJOR = 2;
export const NAMES_FORMAT_MINOR = 0;
const KIND: TableKind = { magic: "ZTNAMES\0", major: NAMES_FORMAT_MAJOR, minor: NAMES_FORMAT_MINOR, what: "names table" };

/** The sections, in file order. Strings are named by their index in the string section. */
export const NamesSection = {
  /** [localeCount, slotsPerLocale, metazoneCount, zoneCount, specificZoneCount, regionCount, metadata string, search key count]. */
  Meta: 0,
  /** Per locale, its tag as CLDR spells it ("de-AT", "zh-Hant"), sorted by the tag's lower case. */
  LocaleTags: 1,
  /**
   * SlotBlocks: the distinct blocks of SLOT_BLOCK string ids (0: CLDR has none) the slot
   * index names; a locale's slots, slotsPerLocale of them laid out as FormatSlot and the
   * slot methods of names-table.ts say, are its blocks in order (the last one padded with 0).
   */
  SlotBlocks: 2,
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
  /** The search keys' blocks (key-blocks.ts): each block's first byte in the search key bytes, then the end. */
  SearchBlockStarts: 13,
  /** Name strings, best first within each key's run, the runs in key order. */
  SearchResults: 14,
  /** The search keys' blocks: each block's first result, then the result count. */
  SearchBlockEntries: 15,
} as const;
export const SECTION_COUNT = 16;
/** Slots per block of the slot index. */
export const SLOT_BLOCK = 16;
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
  /** The search keys' bytes (key-blocks.ts); their blocks are sections. */
  searchKeyBytes: Uint8Array;
  /** Per locale, blocks of SlotBlocks (u16). */
  slotIndex: Uint16Array;
}

export interface NamesData {
  sections: Int32Array[];
  stringOffsets: Uint32Array;
  /** The UTF-8 blob the offsets point into. */
  blob: Uint8Array;
  stringCount: number;
  searchKeys: KeyBlocks;
  slotIndex: Uint16Array;
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
  const keysAt = blobAt + stringBytes;
  const slotIndexAt = align2(keysAt + input.searchKeyBytes.length);
  const total = slotIndexAt + 2 * input.slotIndex.length;
  const buffer = new ArrayBuffer(total);
  const view = writeHeader(buffer, KIND);
  [SECTION_COUNT, encoded.length, stringBytes, total, input.searchKeyBytes.length, input.slotIndex.length].forEach((v, i) => view.setUint32(12 + 4 * i, v, true));
  new Uint8Array(buffer, keysAt, input.searchKeyBytes.length).set(input.searchKeyBytes);
  new Uint16Array(buffer, slotIndexAt, input.slotIndex.length).set(input.slotIndex);
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
  const [sectionCount, stringCount, stringBytes, total, searchKeyBytes, slotIndexCount] =
    [0, 1, 2, 3, 4, 5].map((i) => view.getUint32(12 + 4 * i, true)) as [number, number, number, number, number, number];
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
  const keysAt = blobAt + stringBytes;
  const slotIndexAt = align2(keysAt + searchKeyBytes);
  if (slotIndexAt + 2 * slotIndexCount !== total) fail("the string section's length does not match the header");
  const stringOffsets = new Uint32Array(buffer, end, stringCount + 1);
  for (let i = 0; i < stringCount; i++) {
    if (stringOffsets[i + 1]! < stringOffsets[i]!) fail(`string ${i} lies outside the string section`);
  }
  if (stringOffsets[0] !== 0 || stringOffsets[stringCount] !== stringBytes) fail("the string offsets do not span the string section");
  const meta = sections[NamesSection.Meta]!;
  if (meta.length < 8) fail("the meta section is short");
  const [locales, slotsPerLocale] = [meta[0]!, meta[1]!];
  const slotBlocks = sections[NamesSection.SlotBlocks]!;
  const slotIndex = new Uint16Array(buffer, slotIndexAt, slotIndexCount);
  if (slotBlocks.length % SLOT_BLOCK !== 0 || slotIndexCount !== locales * Math.ceil(slotsPerLocale / SLOT_BLOCK)) fail("the slot index does not match its locale count");
  for (let i = 0; i < slotIndexCount; i++) if (slotIndex[i]! >= slotBlocks.length / SLOT_BLOCK) fail(`slot index entry ${i} names a block that does not exist`);
  for (const s of [NamesSection.LocaleTags, NamesSection.SlotBlocks, NamesSection.MetazoneIds, NamesSection.ZoneIds, NamesSection.RegionCodes, NamesSection.CountryZoneNames, NamesSection.SearchResults]) {
    for (const id of sections[s]!) if (id < 0 || id >= stringCount) fail(`section ${s} names string ${id}, which does not exist`);
  }
  const asU32 = (s: Int32Array) => new Uint32Array(s.buffer, s.byteOffset, s.length);
  const searchKeys: KeyBlocks = {
    keyCount: meta[7]!,
    blockStarts: asU32(sections[NamesSection.SearchBlockStarts]!),
    blockEntries: asU32(sections[NamesSection.SearchBlockEntries]!),
    bytes: new Uint8Array(buffer, keysAt, searchKeyBytes),
  };
  checkKeyBlocks(searchKeys, sections[NamesSection.SearchResults]!.length, (reason) => fail(`search keys: ${reason}`));
  return { sections, stringOffsets, blob: new Uint8Array(buffer, blobAt, stringBytes), stringCount, searchKeys, slotIndex };
}

const align2 = (n: number) => n + (n & 1);
