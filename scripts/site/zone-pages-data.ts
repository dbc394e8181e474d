// What each zone page shows, computed at build from the runtime's own zone table: the
// zone's facts (as /timezone/{name}/info has them) and every clock change from 1970 to ten
// years after the build (as /timezone/{name}/transitions answers them), per canonical zone
// (a link's page shows its zone's data). Compact: a change is [unixtime, utc offset in
// seconds, dst 0/1, abbreviation index, wall clock: 1 gap, -1 overlap, 0 none].

import { ZoneTable } from "../../server/tz/zone-table.ts";
import { clockChanges, wallClockChange } from "../../server/tz/zone-transitions.ts";

export type ChartChange = [at: number, utoff: number, dst: 0 | 1, abbr: number, wall: -1 | 0 | 1];

export interface ZonePageData {
  zone: string;
  links: readonly string[];
  countries: { code: string; name: string }[];
  location: { latitude: number; longitude: number; comment: string } | null;
  posix: string | null;
  posixFrom: number | null;
  from: number;
  to: number;
  abbrs: string[];
  /** The state at `from`: [utc offset, dst, abbreviation index]. */
  start: [number, 0 | 1, number];
  changes: ChartChange[];
}

/** The chart's window: 1970-01-01 to the first of January eleven years after the build's year. */
export function chartWindow(now: number): { from: number; to: number } {
  return { from: 0, to: Date.UTC(new Date(now * 1000).getUTCFullYear() + 11, 0, 1) / 1000 };
}

export function zonePagesData(zones: ZoneTable, now: number): { names: Record<string, string>; zones: Record<string, ZonePageData> } {
  const { from, to } = chartWindow(now);
  const names: Record<string, string> = {};
  const out: Record<string, ZonePageData> = {};
  for (const name of zones.names) {
    const resolved = zones.resolve(name)!;
    const zone = zones.zoneName(resolved.zone);
    names[name] = zone;
    if (out[zone]) continue;
    const abbrs: string[] = [];
    const abbr = (a: string) => (abbrs.includes(a) ? abbrs.indexOf(a) : abbrs.push(a) - 1);
    const first = zones.findPeriod(resolved.zone, from).type;
    const start: [number, 0 | 1, number] = [first.utoff, first.isdst ? 1 : 0, abbr(first.abbr)];
    const changes: ChartChange[] = [];
    // In pages of the API's cap, as a client of /transitions would ask.
    for (let at: number | null = from; at !== null;) {
      const page = clockChanges(zones, resolved.zone, at, to);
      for (const c of page.changes) {
        const wall = wallClockChange(c).effect;
        changes.push([c.at, c.after.utoff, c.after.isdst ? 1 : 0, abbr(c.after.abbr), wall === "gap" ? 1 : wall === "overlap" ? -1 : 0]);
      }
      at = page.nextFrom;
    }
    const facts = zones.facts(zone);
    const posix = zones.posixTz(resolved.zone);
    out[zone] = {
      zone,
      links: zones.linksTo(resolved.zone),
      countries: facts?.countries ?? [],
      location: facts ? { latitude: facts.latitude, longitude: facts.longitude, comment: facts.comment } : null,
      posix: posix?.tz ?? null,
      posixFrom: posix === null || posix.from === -Infinity ? null : posix.from,
      from,
      to,
      abbrs,
      start,
      changes,
    };
  }
  return { names, zones: out };
}
