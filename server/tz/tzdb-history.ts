// The runtime's view of generated/tzdb-history.bin: every release served, each as a
// ZoneTable of its own (the names that release had, pointing at the versions it compiled
// to), made on first use and kept. Release tables share one table of every version for
// their per-zone work (types, footers, period caches, device-string checks), so a release
// table holds little more than its names. The default release answers from zones.bin itself, so
// `?tzdb=` naming it is exactly the answer without it.

import { ABSENT, decodeHistory, type HistoryData, type ReleaseMeta } from "../formats/history-format.ts";
import { NAME_RECORD_INTS, type ZoneTableData } from "../formats/zones-format.ts";
import { ZoneTable } from "./zone-table.ts";
import { zoneTabNames } from "./release-zone-tab.ts";
import { asciiLowerCase } from "../core/ascii-fold.ts";

/** A table's bytes and where they came from: what another thread reads the same table from. */
export interface TableBytes {
  buffer: ArrayBuffer;
  file: string;
}

export class TzdbHistory {
  /** Newest (the default) first. */
  readonly releases: readonly ReleaseMeta[];
  readonly gaps: readonly string[];
  /** Every name any release had, sorted. */
  readonly allNames: readonly string[];
  private readonly data: HistoryData;
  private readonly byRelease = new Map<string, number>();
  private readonly tables = new Map<string, ZoneTable>();
  private readonly stringOfName = new Map<string, number>();
  /** Every name any release had, by its ASCII lower case. */
  private readonly byLowerName = new Map<string, string>();
  /**
   * Every stored version as one table, which each release's table points into. Made with the
   * history (7 ms, 1 MB of heap): made on first use, it held the request that first named an
   * older release, or the releases feed's walk, for those 7 ms at once.
   */
  private readonly versions: ZoneTable;
  /** The embedded table's strings, then each .tab facts row's three (row i at base + 3i). */
  private readonly strings: string[];
  private readonly factStringsBase: number;

  /**
   * `bytes`: what it and the default table were read from, so that a thread of its own can
   * read them again (http/time-machine/history-thread.ts); null where it was made otherwise.
   */
  constructor(data: HistoryData, private readonly defaultTable: ZoneTable, readonly bytes: { history: TableBytes; zones: TableBytes } | null = null) {
    this.data = data;
    this.factStringsBase = data.zones.strings.length;
    this.strings = data.meta.facts ? data.zones.strings.concat(data.meta.facts.rows.flat()) : data.zones.strings;
    this.releases = data.meta.releases;
    this.gaps = data.meta.gaps;
    this.allNames = data.meta.names;
    this.versions = new ZoneTable(data.zones);
    this.releases.forEach((r, i) => this.byRelease.set(r.release, i));
    const names = data.zones.names;
    for (let o = 0; o < names.length; o += NAME_RECORD_INTS) this.stringOfName.set(data.zones.strings[names[o]!]!, names[o]!);
    for (const name of this.allNames) this.byLowerName.set(asciiLowerCase(name) ?? name, name);
  }

  /** `zonesBytes`: the bytes `defaultTable` was read from (see `bytes`). */
  static fromBuffer(buffer: ArrayBuffer, file: string, defaultTable: ZoneTable, zonesBytes?: TableBytes): TzdbHistory {
    return new TzdbHistory(decodeHistory(buffer, file), defaultTable, zonesBytes === undefined ? null : { history: { buffer, file }, zones: zonesBytes });
  }

  /**
   * `raw` as the releases spell it (`europe/london` -> `Europe/London`), if any release served
   * had it; `release`: if that one had it. Found without making a release's table (up to 6 ms
   * the first time), as a release table's resolve would find it.
   */
  spelling(raw: string, release?: string): string | undefined {
    const name = this.nameIndex(raw) >= 0 ? raw : this.byLowerName.get(asciiLowerCase(raw) ?? "");
    if (name === undefined || (release !== undefined && this.versionOf(release, name) === null)) return undefined;
    return name;
  }

  get defaultRelease(): string {
    return this.releases[0]!.release;
  }

  meta(release: string): ReleaseMeta | undefined {
    const i = this.byRelease.get(release);
    return i === undefined ? undefined : this.releases[i];
  }

  /** The release before `release` among those served (null for the oldest). */
  previous(release: string): string | null {
    const i = this.byRelease.get(release);
    return i === undefined || i + 1 >= this.releases.length ? null : this.releases[i + 1]!.release;
  }

  /**
   * Which stored version a name compiled to in a release (a Link: its target's), or null
   * where the release lacks the name. Equal versions answer identically at every instant.
   */
  versionOf(release: string, name: string): number | null {
    const r = this.byRelease.get(release);
    const n = this.nameIndex(name);
    if (r === undefined || n < 0) return null;
    const entry = this.data.matrix[r * this.allNames.length + n]!;
    return entry === ABSENT ? null : entry >> 1;
  }

  /**
   * The names both releases have, compiled to different versions (`since`'s and `release`'s
   * answers may differ only for these), in name order: read from the matrix by index, a
   * thousandth of looking each name up (versionOf twice per name: 1.5-2.4 ms a pair).
   */
  namesDiffering(since: string, release: string): string[] {
    const a = this.byRelease.get(since);
    const b = this.byRelease.get(release);
    if (a === undefined || b === undefined) return [];
    const width = this.allNames.length;
    const differing: string[] = [];
    for (let n = 0; n < width; n++) {
      const ea = this.data.matrix[a * width + n]!;
      const eb = this.data.matrix[b * width + n]!;
      if (ea !== ABSENT && eb !== ABSENT && ea >> 1 !== eb >> 1) differing.push(this.allNames[n]!);
    }
    return differing;
  }

  /**
   * zone.tab's names for an ISO 3166 code (upper case) as `release` had them, sorted;
   * undefined for a code its iso3166.tab lacks, null where it had no such tables (or the
   * file was built before they were kept).
   */
  countryZones(release: string, code: string): string[] | undefined | null {
    const r = this.byRelease.get(release);
    const { facts, zoneTabs } = this.data.meta;
    const t = r === undefined || zoneTabs === undefined ? -1 : zoneTabs.tableOf[r]!;
    const countries = t < 0 || facts === undefined || facts.countryNamesOf[r!]! < 0 ? undefined : facts.countryNames[facts.countryNamesOf[r!]!]!;
    if (countries === undefined) return null;
    if (!`\n${countries}`.includes(`\n${code}\t`)) return undefined;
    return zoneTabNames(zoneTabs!, t, code);
  }

  /** The release's table; undefined for a release not served. */
  table(release: string): ZoneTable | undefined {
    if (release === this.defaultRelease) return this.defaultTable;
    let table = this.tables.get(release);
    if (table === undefined) {
      const r = this.byRelease.get(release);
      if (r === undefined) return undefined;
      table = new ZoneTable(this.releaseData(release, r), this.versions);
      this.tables.set(release, table);
    }
    return table;
  }

  /**
   * The versions table with the names one release had, and the countries and coordinates
   * its own .tab files gave them (none from a file built before they were kept).
   */
  private releaseData(release: string, r: number): ZoneTableData {
    const width = this.allNames.length;
    const facts = this.data.meta.facts;
    const set = facts === undefined ? -1 : facts.setOf[r]!;
    const records: number[] = [];
    const factRecords: number[] = [];
    for (let n = 0; n < width; n++) {
      const entry = this.data.matrix[r * width + n]!;
      if (entry === ABSENT) continue;
      records.push(this.stringOfName.get(this.allNames[n]!)!, entry >> 1, entry & 1);
      const row = set < 0 ? -1 : this.data.factMatrix[set * width + n]!;
      const first = this.factStringsBase + 3 * row;
      factRecords.push(...(row < 0 ? [-1, -1, -1] : [first, first + 1, first + 2]));
    }
    const countryNames = facts === undefined || facts.countryNamesOf[r]! < 0 ? "" : facts.countryNames[facts.countryNamesOf[r]!]!;
    return {
      ...this.data.zones, strings: this.strings, tzdbVersion: release, names: Int32Array.from(records),
      facts: set < 0 ? new Int32Array(0) : Int32Array.from(factRecords), countryNames,
    };
  }

  private nameIndex(name: string): number {
    // allNames is sorted (code-unit order): binary search.
    let lo = 0;
    let hi = this.allNames.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const m = this.allNames[mid]!;
      if (m === name) return mid;
      if (m < name) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
