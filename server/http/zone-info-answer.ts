// The body of /timezone/{name}/info: what a name is (canonical zone, links, countries and
// principal location from the release's .tab files), its state at the instant asked for,
// the next clock change, and its POSIX TZ string (zic's TZif footer) with the instant
// from which that string alone describes the zone.

import { formatOffset } from "../core/time-format.ts";
import type { ResolvedName, ZoneTable } from "../tz/zone-table.ts";
import { nextClockChange } from "../tz/zone-transitions.ts";
import type { Profile } from "../time-object/time-object.ts";
import { formatUtc, textLines, transitionEntry, type TransitionEntry } from "./transitions-answer.ts";

export interface ZoneInfoAnswer {
  timezone: string;
  canonical: string;
  is_link: boolean;
  links: readonly string[];
  countries: { code: string; name: string }[];
  location: { latitude: number; longitude: number; comment: string } | null;
  tzdb_version: string;
  utc_offset: string;
  abbreviation: string;
  dst: boolean;
  dst_offset: number;
  raw_offset: number;
  next_transition: TransitionEntry | null;
  posix_tz: string | null;
  posix_tz_from: string | null;
}

export interface ZoneInfo {
  answer: ZoneInfoAnswer;
  /** Unix seconds until which the answer holds (the next change), Infinity when it always will. */
  validUntil: number;
}

export function zoneInfo(zones: ZoneTable, name: ResolvedName, at: number, profile: Profile): ZoneInfo {
  const { type } = zones.findPeriod(name.zone, at);
  const next = nextClockChange(zones, name.zone, at);
  const facts = zones.facts(name.name);
  const posix = zones.posixTz(name.zone);
  const dstOffset = type.isdst ? type.save : 0;
  return {
    answer: {
      timezone: name.name,
      canonical: zones.zoneName(name.zone),
      is_link: name.isLink,
      links: zones.linksTo(name.zone),
      countries: facts?.countries ?? [],
      location: facts ? { latitude: facts.latitude, longitude: facts.longitude, comment: facts.comment } : null,
      tzdb_version: zones.tzdbVersion,
      utc_offset: formatOffset(type.utoff),
      abbreviation: type.abbr,
      dst: type.isdst,
      dst_offset: dstOffset,
      raw_offset: type.utoff - dstOffset,
      next_transition: next ? transitionEntry(next, profile) : null,
      posix_tz: posix?.tz ?? null,
      posix_tz_from: posix === null || posix.from === -Infinity ? null : formatUtc(posix.from, profile),
    },
    validUntil: next ? next.at : Infinity,
  };
}

/** `.txt`: the flat fields, then lists and nested objects as prefixed lines. */
export function zoneInfoText(a: ZoneInfoAnswer): string {
  let out = textLines(a);
  out += `links: ${a.links.join(" ")}\n`;
  out += `countries: ${a.countries.map((c) => c.code).join(" ")}\n`;
  out += a.location ? textLines(a.location, "location.") : "location: \n";
  out += a.next_transition ? textLines(a.next_transition, "next_transition.") : "next_transition: \n";
  return out;
}
