// Each release's countries and coordinates, as its own zone1970.tab, zone.tab and
// iso3166.tab said (its tab bundle, release-tabs.ts), read exactly as the default build
// reads data/tzdb's (zone-facts.ts, compile.ts): zone1970.tab's row first, then zone.tab's;
// a name without a row of its own (a Link, UTC) tells its target's. Equal rows are stored
// once, and releases whose tables say the same for every name share one set.

import type { HistoryFacts } from "../../../server/formats/history-format.ts";
import type { ZoneFacts } from "../../../server/formats/zones-format.ts";
import { parseZoneFacts } from "../zone-facts.ts";
import { unbundleTabs } from "./release-tabs.ts";

export interface ReleaseNames {
  /** The tab bundle of the release ("" where none is stored). */
  tabs: string;
  /** Every name the release serves -> the Zone it resolves to. */
  targets: ReadonlyMap<string, string>;
}

/** The facts of every release (in order) over the matrix's names. */
export function releaseFacts(releases: readonly ReleaseNames[], names: readonly string[]): { facts: HistoryFacts; factMatrix: Int32Array } {
  const rows: [string, string, string][] = [];
  const rowIndex = new Map<string, number>();
  const rowOf = (f: ZoneFacts) => {
    const key = `${f.countries}\t${f.coordinates}\t${f.comment}`;
    let i = rowIndex.get(key);
    if (i === undefined) {
      i = rows.length;
      rows.push([f.countries, f.coordinates, f.comment]);
      rowIndex.set(key, i);
    }
    return i;
  };
  const countryNames: string[] = [];
  const sets: Int32Array[] = [];
  const setIndex = new Map<string, number>();
  const setOf: number[] = [];
  const countryNamesOf: number[] = [];
  for (const release of releases) {
    const files = unbundleTabs(release.tabs);
    const zoneTab = files.get("zone.tab");
    const iso3166 = files.get("iso3166.tab");
    const set = new Int32Array(names.length).fill(-1);
    let namesOf = -1;
    if (zoneTab !== undefined && iso3166 !== undefined) {
      const source = parseZoneFacts(files.get("zone1970.tab") ?? "", zoneTab, iso3166);
      names.forEach((name, n) => {
        const target = release.targets.get(name);
        if (target === undefined) return; // not a name of this release
        const row = source.byName.get(name) ?? source.byName.get(target);
        if (row) set[n] = rowOf(row);
      });
      namesOf = countryNames.indexOf(source.countryNames);
      if (namesOf < 0) namesOf = countryNames.push(source.countryNames) - 1;
    }
    const key = set.join(",");
    let s = setIndex.get(key);
    if (s === undefined) {
      s = sets.push(set) - 1;
      setIndex.set(key, s);
    }
    setOf.push(s);
    countryNamesOf.push(namesOf);
  }
  const factMatrix = new Int32Array(sets.length * names.length);
  sets.forEach((set, s) => factMatrix.set(set, s * names.length));
  return { facts: { rows, countryNames, setOf, countryNamesOf, sets: sets.length }, factMatrix };
}
