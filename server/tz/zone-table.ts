// The runtime's view of generated/zones.bin: name -> zone by one Map lookup, and
// zone + instant -> the period (offset, abbreviation, DST state, bounds) by binary search
// over the stored transitions, or by evaluating the footer rules past the last one.
// Each zone remembers the last period it answered (Go's cacheStart/cacheEnd), so asking
// for "now" again costs two comparisons until the next transition.

import { asciiLowerCase } from "../core/ascii-fold.ts";
import { yearOfUnixSeconds } from "../core/calendar.ts";
import { sameType, type FooterRule, type LocalTimeType } from "../formats/zone-model.ts";
import { firingsInYear } from "./rule-firings.ts";
import {
  FACT_RECORD_INTS, NAME_RECORD_INTS, TYPE_RECORD_INTS, ZONE_RECORD_INTS, decodeZones, footerRuleAt,
  type ZoneTableData,
} from "../formats/zones-format.ts";

/** A stretch of time over which one local time type holds. */
export interface Period {
  /** Unix seconds of the transition that began it; -Infinity before the first one. */
  start: number;
  /** Unix seconds of the next transition; Infinity when none follows. */
  end: number;
  type: LocalTimeType;
}

export interface ResolvedName {
  /** The name in its canonical spelling (the requested Zone or Link, not its target). */
  name: string;
  zone: number;
  isLink: boolean;
}

/** The TZif footer of a zone and the instant from which it alone describes the zone. */
export interface PosixTz {
  tz: string;
  /** Unix seconds; -Infinity when the string describes the zone's whole history. */
  from: number;
}

/** What the release's .tab files say about a name. */
export interface NameFacts {
  countries: { code: string; name: string }[];
  /** The principal location, decimal degrees. */
  latitude: number;
  longitude: number;
  /** zone1970.tab's comment ("Eastern (most areas)"); "" when it has none. */
  comment: string;
}

/** `+DDMM[SS]` or `+DDDMM[SS]` (ISO 6709, as the .tab files write it) in decimal degrees. */
function degrees(text: string): number {
  const degreeDigits = text.length === 5 || text.length === 7 ? 2 : 3;
  const d = Number(text.slice(1, 1 + degreeDigits));
  const m = Number(text.slice(1 + degreeDigits, 3 + degreeDigits));
  const s = Number(text.slice(3 + degreeDigits) || 0);
  const value = Math.round((d + m / 60 + s / 3600) * 1e5) / 1e5;
  return text[0] === "-" ? -value : value;
}

/** The contiguous run of isdst periods around an instant (bounds may be infinite). */
export interface DstRun {
  from: number;
  until: number;
}

export interface FooterData {
  stdoff: number;
  rules: FooterRule[];
}

export class ZoneTable {
  readonly tzdbVersion: string;
  readonly builtAt: string;
  /** Every name (Zones and Links), sorted as WorldTimeAPI and `sort` order them. */
  readonly names: readonly string[];
  readonly zoneCount: number;
  /** The table whose per-zone work this one shares (itself, or the `versions` it was made with). */
  readonly compiled: ZoneTable;

  private readonly data: ZoneTableData;
  private readonly types: LocalTimeType[];
  private readonly byName = new Map<string, ResolvedName>();
  private readonly byLowerName = new Map<string, ResolvedName>();
  private readonly footers: (FooterData | null)[];
  private readonly cacheStart: Float64Array;
  private readonly cacheEnd: Float64Array;
  private readonly cachePeriod: (Period | null)[];
  private readonly zoneNames: string[] = [];
  private readonly linkNames: string[][] = [];
  private readonly countryNames = new Map<string, string>();
  private readonly nameIndex = new Map<string, number>();
  /** Facts decoded once per name: they are constant for the life of the table. */
  private readonly factsByName = new Map<string, NameFacts | null>();

  /**
   * `versions`: a table over the same compiled zones (its `data` but other names), whose
   * per-zone work this one shares: a tzdb release's table (tzdb-history.ts) holds only
   * its names, and every release's answers and device strings share one set of checks.
   */
  constructor(data: ZoneTableData, versions?: ZoneTable) {
    this.data = data;
    this.tzdbVersion = data.tzdbVersion;
    this.builtAt = data.builtAt;
    this.zoneCount = data.zones.length / ZONE_RECORD_INTS;
    this.compiled = versions ?? this;
    this.types = versions?.types ?? localTimeTypes(data);
    const names: string[] = [];
    for (let n = 0; n < data.names.length / NAME_RECORD_INTS; n++) {
      const o = n * NAME_RECORD_INTS;
      const name = data.strings[data.names[o]!]!;
      names.push(name);
      const resolved = { name, zone: data.names[o + 1]!, isLink: data.names[o + 2]! !== 0 };
      this.byName.set(name, resolved);
      this.byLowerName.set(name.toLowerCase(), resolved);
    }
    for (let n = 0; n < names.length; n++) {
      const o = n * NAME_RECORD_INTS;
      const zone = data.names[o + 1]!;
      this.nameIndex.set(names[n]!, n);
      if (data.names[o + 2]! === 0) this.zoneNames[zone] = names[n]!;
      else (this.linkNames[zone] ??= []).push(names[n]!);
    }
    for (const links of this.linkNames) links?.sort();
    for (const line of data.countryNames.split("\n")) {
      const tab = line.indexOf("\t");
      if (tab > 0) this.countryNames.set(line.slice(0, tab), line.slice(tab + 1));
    }
    this.names = names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.footers = versions?.footers ?? footersOf(data, this.zoneCount, this.types);
    this.cacheStart = versions?.cacheStart ?? new Float64Array(this.zoneCount).fill(Infinity);
    this.cacheEnd = versions?.cacheEnd ?? new Float64Array(this.zoneCount).fill(-Infinity);
    this.cachePeriod = versions?.cachePeriod ?? new Array(this.zoneCount).fill(null);
  }

  static fromBuffer(buffer: ArrayBuffer, file: string): ZoneTable {
    return new ZoneTable(decodeZones(buffer, file));
  }

  static async load(file: string): Promise<ZoneTable> {
    return ZoneTable.fromBuffer(await Bun.file(file).arrayBuffer(), file);
  }

  /** Lookup of any Zone or Link name, ASCII letters in any case. */
  resolve(name: string): ResolvedName | undefined {
    // Canonical spelling first: it is what nearly every client sends, and needs no lowercasing.
    const exact = this.byName.get(name);
    if (exact !== undefined) return exact;
    const folded = asciiLowerCase(name);
    return folded === null ? undefined : this.byLowerName.get(folded);
  }

  /** The period of `zone` that contains unix time `t` (seconds, may have a fraction). */
  periodAt(zone: number, t: number): Period {
    if (t >= this.cacheStart[zone]! && t < this.cacheEnd[zone]!) return this.cachePeriod[zone]!;
    const period = this.findPeriod(zone, t);
    this.cacheStart[zone] = period.start;
    this.cacheEnd[zone] = period.end;
    this.cachePeriod[zone] = period;
    return period;
  }

  /** When the period at `t` is isdst: the start and end of the isdst run around it. */
  dstRunAt(zone: number, t: number): DstRun | null {
    const here = this.periodAt(zone, t);
    if (!here.type.isdst) return null;
    let from = here.start;
    while (from !== -Infinity) {
      const before = this.findPeriod(zone, from - 1);
      if (!before.type.isdst) break;
      from = before.start;
    }
    let until = here.end;
    while (until !== Infinity) {
      const after = this.findPeriod(zone, until);
      if (!after.type.isdst) break;
      until = after.end;
    }
    return { from, until };
  }

  /** The Zone name a zone index stands for (a Link's canonical zone). */
  zoneName(zone: number): string {
    return this.zoneNames[zone]!;
  }

  /** The Links to a zone, sorted. */
  linksTo(zone: number): readonly string[] {
    return this.linkNames[zone] ?? [];
  }

  /** Countries and principal location of a name, from zone1970.tab/zone.tab; null when they have no row for it. */
  facts(name: string): NameFacts | null {
    let facts = this.factsByName.get(name);
    if (facts === undefined) {
      facts = this.readFacts(name);
      this.factsByName.set(name, facts);
    }
    return facts;
  }

  private readFacts(name: string): NameFacts | null {
    const n = this.nameIndex.get(name);
    if (n === undefined || this.data.facts.length === 0) return null;
    const o = n * FACT_RECORD_INTS;
    const countries = this.data.facts[o]!;
    if (countries < 0) return null;
    const coordinates = this.data.strings[this.data.facts[o + 1]!]!;
    const split = Math.max(coordinates.lastIndexOf("+"), coordinates.lastIndexOf("-"));
    return {
      countries: this.data.strings[countries]!.split(",").map((code) => ({ code, name: this.countryNames.get(code) ?? code })),
      latitude: degrees(coordinates.slice(0, split)),
      longitude: degrees(coordinates.slice(split)),
      comment: this.data.strings[this.data.facts[o + 2]!]!,
    };
  }

  /** The zone's POSIX TZ string as zic writes it; null when zic writes none or the file predates it. */
  posixTz(zone: number): PosixTz | null {
    const index = this.data.posixTz[zone];
    if (index === undefined || index < 0) return null;
    return { tz: this.data.strings[index]!, from: this.data.posixFrom[zone]! };
  }

  /** The build's device footer check for the zone (zones-format.ts); undefined where the file has none. */
  checkedDeviceFooterFrom(zone: number): number | undefined {
    const from = this.data.deviceFooterFrom[zone];
    return from === undefined || Number.isNaN(from) ? undefined : from;
  }

  /** The rules that keep firing after the last stored transition; null when the last type holds forever. */
  footer(zone: number): FooterData | null {
    return this.footers[zone]!;
  }

  /** Unix seconds of the zone's last stored transition; -Infinity when it has none (then only the footer or the initial type answers). */
  lastStoredTransition(zone: number): number {
    const o = zone * ZONE_RECORD_INTS;
    const count = this.data.zones[o + 1]!;
    return count > 0 ? this.data.times[this.data.zones[o]! + count - 1]! : -Infinity;
  }

  /** periodAt without touching the per-zone cache, for walks that would evict "now". */
  findPeriod(zone: number, t: number): Period {
    const o = zone * ZONE_RECORD_INTS;
    const first = this.data.zones[o]!;
    const count = this.data.zones[o + 1]!;
    const times = this.data.times;
    // Largest i in [first, first+count) with times[i] <= t, or first-1.
    let lo = first;
    let hi = first + count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    const last = first + count - 1;
    const footer = this.footers[zone]!;
    if (i === last && footer !== null) {
      const lastType = count > 0 ? this.types[this.data.typeIndices[last]!]! : this.types[this.data.zones[o + 2]!]!;
      return footerPeriod(footer, count > 0 ? times[last]! : -Infinity, lastType, t);
    }
    const type = i < first ? this.types[this.data.zones[o + 2]!]! : this.types[this.data.typeIndices[i]!]!;
    return {
      start: i < first ? -Infinity : times[i]!,
      end: i + 1 <= last ? times[i + 1]! : Infinity,
      type,
    };
  }
}

/**
 * Past the last stored transition: fire the footer rules for the years around `t`
 * (with a year before them to settle the SAVE in force) and find the period holding t.
 */
function footerPeriod(footer: FooterData, lastAt: number, lastType: LocalTimeType, t: number): Period {
  const year = yearOfUnixSeconds(t);
  let save = 0;
  for (const f of firingsInYear(footer.rules, year - 3, footer.stdoff, save)) save = f.rule.save;
  let start = lastAt;
  let type = lastType;
  for (let y = year - 2; y <= year + 1; y++) {
    for (const f of firingsInYear(footer.rules, y, footer.stdoff, save)) {
      save = f.rule.save;
      if (f.at <= lastAt || sameType(type, f.rule.type)) continue;
      if (f.at > t) return { start, end: f.at, type };
      start = f.at;
      type = f.rule.type;
    }
  }
  return { start, end: Infinity, type };
}

/** Every local time type of the file, each one frozen object (periods hand them out). */
function localTimeTypes(data: ZoneTableData): LocalTimeType[] {
  const types: LocalTimeType[] = [];
  for (let t = 0; t < data.types.length / TYPE_RECORD_INTS; t++) {
    const o = t * TYPE_RECORD_INTS;
    types.push(Object.freeze({
      utoff: data.types[o]!,
      save: data.types[o + 1]!,
      isdst: data.types[o + 2]! !== 0,
      abbr: data.strings[data.types[o + 3]!]!,
    }));
  }
  return types;
}

/** Each zone's footer rules, decoded once; null where the last type holds forever. */
function footersOf(data: ZoneTableData, zoneCount: number, types: LocalTimeType[]): (FooterData | null)[] {
  const footers: (FooterData | null)[] = [];
  for (let z = 0; z < zoneCount; z++) {
    const o = z * ZONE_RECORD_INTS;
    const first = data.zones[o + 3]!;
    const count = data.zones[o + 4]!;
    const rules: FooterRule[] = [];
    for (let r = first; r < first + count; r++) rules.push(footerRuleAt(data, r, (i) => types[i]!));
    footers.push(count > 0 ? { stdoff: data.zones[o + 5]!, rules } : null);
  }
  return footers;
}
