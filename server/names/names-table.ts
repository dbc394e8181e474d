// The runtime's view of generated/names.bin: locale tags to locales, tz names to CLDR
// zones, and the names of a locale by slot. Strings are decoded from the mapped file when
// first asked for and kept (a worker asks for few of the table's strings).

import { KeyBlockIndex } from "../formats/key-blocks.ts";
import {
  FORMAT_SLOTS, NamesSection, OPEN_START, PERIOD_INTS, SLOT_BLOCK, ZONE_INFO_INTS, decodeNames, type NamesData,
} from "../formats/names-format.ts";

export interface Locale {
  index: number;
  /** The tag as CLDR spells it: the locale used. */
  tag: string;
  /** Digits a tag's -u-nu- asked for instead of the locale's own (ar-EG-u-nu-latn: ASCII). */
  digits?: string;
}

const decoder = new TextDecoder();

export class NamesTable {
  readonly data: NamesData;
  readonly localeCount: number;
  readonly slotsPerLocale: number;
  readonly metazoneCount: number;
  readonly zoneCount: number;
  readonly specificCount: number;
  readonly regionCount: number;
  readonly cldrVersion: string;
  /** "zh-TW" -> "Hant": where a region means another script than the language's default. */
  readonly likelyScripts: ReadonlyMap<string, string>;
  /** CLDR's language aliases, keys in lower case: "iw" -> "he", "sh" -> "sr-Latn", "art-lojban" -> "jbo" (empty in a table built before them). */
  readonly languageAliases: ReadonlyMap<string, string>;
  /** Numeric numbering systems' digits: "latn" -> "0123456789", "arab" -> "٠١٢٣٤٥٦٧٨٩" (for a tag's -u-nu-). */
  readonly numberingDigits: ReadonlyMap<string, string>;
  /** The /timezone?q= keys (zone-search.ts). */
  readonly searchIndex: KeyBlockIndex;
  private readonly s: Int32Array[];
  private readonly slotBlocks: Int32Array;
  private readonly slotIndex: Uint16Array;
  private readonly blocksPerLocale: number;
  private readonly cache = new Map<number, string>();
  private readonly localeByLower = new Map<string, Locale>();
  private readonly zoneByName = new Map<string, number>();
  private readonly regionByCode = new Map<string, number>();
  private readonly zoneById = new Map<string, number>();
  private readonly countryRows = new Map<string, number>();

  constructor(data: NamesData) {
    this.data = data;
    this.s = data.sections;
    const meta = this.s[NamesSection.Meta]!;
    [this.localeCount, this.slotsPerLocale, this.metazoneCount, this.zoneCount, this.specificCount, this.regionCount] =
      [meta[0]!, meta[1]!, meta[2]!, meta[3]!, meta[4]!, meta[5]!];
    const metadata = JSON.parse(this.string(meta[6]!)) as { cldrVersion: string; scripts: Record<string, string>; languageAliases?: Record<string, string>; numberingDigits?: Record<string, string> };
    this.cldrVersion = metadata.cldrVersion;
    this.searchIndex = new KeyBlockIndex(data.searchKeys);
    this.slotBlocks = this.s[NamesSection.SlotBlocks]!;
    this.slotIndex = data.slotIndex;
    this.blocksPerLocale = Math.ceil(this.slotsPerLocale / SLOT_BLOCK);
    this.likelyScripts = new Map(Object.entries(metadata.scripts));
    this.languageAliases = new Map(Object.entries(metadata.languageAliases ?? {}));
    this.numberingDigits = new Map(Object.entries(metadata.numberingDigits ?? {}));
    const tags = this.s[NamesSection.LocaleTags]!;
    for (let l = 0; l < this.localeCount; l++) {
      const tag = this.string(tags[l]!);
      this.localeByLower.set(tag.toLowerCase(), { index: l, tag });
    }
    const nameMap = this.s[NamesSection.NameMap]!;
    for (let i = 0; i < nameMap.length; i += 2) this.zoneByName.set(this.string(nameMap[i]!), nameMap[i + 1]!);
    const regions = this.s[NamesSection.RegionCodes]!;
    for (let r = 0; r < this.regionCount; r++) this.regionByCode.set(this.string(regions[r]!), r);
    const ids = this.s[NamesSection.ZoneIds]!;
    for (let z = 0; z < this.zoneCount; z++) this.zoneById.set(this.string(ids[z]!), z);
    const countries = this.s[NamesSection.CountryZones]!;
    for (let i = 0; i < countries.length; i += 3) this.countryRows.set(this.string(regions[countries[i]!]!), i);
  }

  static fromBuffer(buffer: ArrayBuffer, file: string): NamesTable {
    return new NamesTable(decodeNames(buffer, file));
  }

  string(id: number): string {
    if (id === 0) return "";
    let s = this.cache.get(id);
    if (s === undefined) {
      const o = this.data.stringOffsets;
      s = decoder.decode(this.data.blob.subarray(o[id]!, o[id + 1]!));
      this.cache.set(id, s);
    }
    return s;
  }

  /** An exact CLDR locale by tag, any case; undefined when CLDR has none. */
  locale(tag: string): Locale | undefined {
    return this.localeByLower.get(tag.toLowerCase());
  }

  /** The string id in a locale's slot; 0 when CLDR has none. */
  slot(locale: Locale, slot: number): number {
    const block = this.slotIndex[locale.index * this.blocksPerLocale + Math.floor(slot / SLOT_BLOCK)]!;
    return this.slotBlocks[block * SLOT_BLOCK + (slot % SLOT_BLOCK)]!;
  }

  metazoneSlot(mz: number, kind: number): number {
    return FORMAT_SLOTS + 6 * mz + kind;
  }

  exemplarSlot(zone: number): number {
    return FORMAT_SLOTS + 6 * this.metazoneCount + zone;
  }

  specificSlot(specific: number, kind: number): number {
    return FORMAT_SLOTS + 6 * this.metazoneCount + this.zoneCount + 6 * specific + kind;
  }

  regionSlot(region: number): number {
    return FORMAT_SLOTS + 6 * this.metazoneCount + this.zoneCount + 6 * this.specificCount + region;
  }

  /** The CLDR zone a tz name stands for (as Intl canonicalizes it); -1 when CLDR has none. */
  zoneOf(name: string): number {
    return this.zoneByName.get(name) ?? -1;
  }

  zoneIndexById(id: string): number {
    return this.zoneById.get(id) ?? -1;
  }

  regionIndex(code: string): number {
    return this.regionByCode.get(code) ?? -1;
  }

  regionCode(region: number): string {
    return this.string(this.s[NamesSection.RegionCodes]![region]!);
  }

  zoneId(zone: number): string {
    return this.string(this.s[NamesSection.ZoneIds]![zone]!);
  }

  /** The zone's country (zone.tab), -1 when none. */
  zoneRegion(zone: number): number {
    return this.s[NamesSection.ZoneInfo]![zone * ZONE_INFO_INTS]!;
  }

  /** ICU's "primary zone" of its country: the only one there, or CLDR's primaryZones entry. */
  zoneIsPrimary(zone: number): boolean {
    return this.s[NamesSection.ZoneInfo]![zone * ZONE_INFO_INTS + 1]! === 1;
  }

  zoneSpecific(zone: number): number {
    return this.s[NamesSection.ZoneInfo]![zone * ZONE_INFO_INTS + 2]!;
  }

  /** The IANA name of a CLDR zone in our release ("Asia/Kolkata" for CLDR's Asia/Calcutta). */
  zoneIanaName(zone: number): string {
    return this.string(this.s[NamesSection.ZoneInfo]![zone * ZONE_INFO_INTS + 5]!);
  }

  /** The metazone of a zone at unix second `t`, -1 when none. */
  metazoneAt(zone: number, t: number): number {
    const info = this.s[NamesSection.ZoneInfo]!;
    const first = info[zone * ZONE_INFO_INTS + 3]!;
    const count = info[zone * ZONE_INFO_INTS + 4]!;
    const periods = this.s[NamesSection.MzPeriods]!;
    const minute = Math.floor(t / 60);
    for (let p = first; p < first + count; p++) {
      const o = p * PERIOD_INTS;
      // A mapping CLDR gives no start holds from 1970-01-01 00:00 UTC: ICU's data build writes
      // that start for it, so before 1970 a zone has no metazone (its LMT and its early
      // offsets are named in the GMT format, its generic name by its location).
      const start = periods[o] === OPEN_START ? 0 : periods[o]!;
      if (start <= minute && minute < periods[o + 1]!) return periods[o + 2]!;
    }
    return -1;
  }

  /** The metazone's reference zone for a region (ICU's getReferenceZoneID): the region's own, else 001's; -1 when none. */
  referenceZone(mz: number, region: number): number {
    const golden = this.s[NamesSection.Golden]!;
    const pairs = this.s[NamesSection.GoldenPairs]!;
    const first = golden[2 * mz]!;
    const count = golden[2 * mz + 1]!;
    let world = -1;
    for (let p = first; p < first + count; p++) {
      if (region >= 0 && pairs[2 * p] === region) return pairs[2 * p + 1]!;
      if (pairs[2 * p] === -1) world = pairs[2 * p + 1]!;
    }
    return world;
  }

  /** zone.tab's names for an ISO 3166 code (upper case), sorted; undefined for a code iso3166.tab lacks. */
  countryZones(code: string): string[] | undefined {
    const row = this.countryRows.get(code);
    if (row === undefined) return undefined;
    const rows = this.s[NamesSection.CountryZones]!;
    const names = this.s[NamesSection.CountryZoneNames]!;
    const out: string[] = [];
    for (let i = rows[row + 1]!; i < rows[row + 1]! + rows[row + 2]!; i++) out.push(this.string(names[i]!));
    return out;
  }
}
