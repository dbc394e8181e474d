// The body of /timezone/{name}/info: what a name is (canonical zone, links, countries and
// principal location from the release's .tab files), its state at the instant asked for,
// the next clock change, and its POSIX TZ string (zic's TZif footer) with the instant
// from which that string alone describes the zone.

import { formatOffset, inRfc3339Years } from "../../core/time-format.ts";
import type { ResolvedName, ZoneTable } from "../../tz/zone-table.ts";
import { nextClockChange } from "../../tz/zone-transitions.ts";
import type { Profile } from "../../time-object/time-object.ts";
import { deviceTz, type DeviceTzAnswer } from "./device-answer.ts";
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
  /** A string right from the instant asked about on device libcs (device-answer.ts): posix_tz is zic's footer, valid only from posix_tz_from. */
  device_tz: DeviceTzAnswer;
}

export interface ZoneInfo {
  answer: ZoneInfoAnswer;
  /** Unix seconds until which the answer holds (the next change), Infinity when it always will. */
  validUntil: number;
}

type StaticPart = Pick<ZoneInfoAnswer, "timezone" | "canonical" | "is_link" | "links" | "countries" | "location" | "tzdb_version" | "posix_tz" | "posix_tz_from">;
type StatePart = Pick<ZoneInfoAnswer, "utc_offset" | "abbreviation" | "dst" | "dst_offset" | "raw_offset" | "next_transition">;

/** What never changes for a name (for the life of the loaded table). */
function staticPart(zones: ZoneTable, name: ResolvedName, profile: Profile): StaticPart {
  const facts = zones.facts(name.name);
  const posix = zones.posixTz(name.zone);
  return {
    timezone: name.name,
    canonical: zones.zoneName(name.zone),
    is_link: name.isLink,
    links: zones.linksTo(name.zone),
    countries: facts?.countries ?? [],
    location: facts ? { latitude: facts.latitude, longitude: facts.longitude, comment: facts.comment } : null,
    tzdb_version: zones.tzdbVersion,
    posix_tz: posix?.tz ?? null,
    posix_tz_from: posix === null || posix.from === -Infinity ? null : formatUtc(posix.from, profile),
  };
}

/** The state at `at` and the next change. */
function statePart(zones: ZoneTable, name: ResolvedName, at: number, profile: Profile): { state: StatePart; validUntil: number } {
  const { type } = zones.findPeriod(name.zone, at);
  const next = nextClockChange(zones, name.zone, at);
  const dstOffset = type.isdst ? type.save : 0;
  return {
    state: {
      utc_offset: formatOffset(type.utoff),
      abbreviation: type.abbr,
      dst: type.isdst,
      dst_offset: dstOffset,
      raw_offset: type.utoff - dstOffset,
      // Past year 9999 an instant has no RFC 3339 form: null, as dst_until is.
      next_transition: next && inRfc3339Years(next.at) ? transitionEntry(next, profile) : null,
    },
    validUntil: next ? next.at : Infinity,
  };
}

export function zoneInfo(zones: ZoneTable, name: ResolvedName, at: number, profile: Profile): ZoneInfo {
  const s = staticPart(zones, name, profile);
  const { state, validUntil } = statePart(zones, name, at, profile);
  const device = deviceTz(zones, name, at, profile);
  const answer: ZoneInfoAnswer = {
    timezone: s.timezone, canonical: s.canonical, is_link: s.is_link, links: s.links, countries: s.countries,
    location: s.location, tzdb_version: s.tzdb_version, ...state, posix_tz: s.posix_tz, posix_tz_from: s.posix_tz_from,
    device_tz: device.answer,
  };
  return { answer, validUntil: Math.min(validUntil, device.refreshAfter) };
}

/** The JSON around the state, per name object and profile: [before, after]. */
const staticJson = new WeakMap<ResolvedName, Partial<Record<Profile, [string, string]>>>();

/** zoneInfo's answer as JSON, the name's constant fields encoded once (the same bytes as JSON.stringify of the answer). */
export function zoneInfoJson(zones: ZoneTable, name: ResolvedName, at: number, profile: Profile): { body: string; validUntil: number } {
  let byProfile = staticJson.get(name);
  if (byProfile === undefined) staticJson.set(name, (byProfile = {}));
  let pieces = byProfile[profile];
  if (pieces === undefined) {
    const { posix_tz, posix_tz_from, ...head } = staticPart(zones, name, profile);
    pieces = byProfile[profile] = [`${JSON.stringify(head).slice(0, -1)},`, `,${JSON.stringify({ posix_tz, posix_tz_from }).slice(1, -1)},"device_tz":`];
  }
  const { state, validUntil } = statePart(zones, name, at, profile);
  const device = deviceTz(zones, name, at, profile);
  // The answer also changes when the device string's refresh_after does.
  return { body: `${pieces[0]}${JSON.stringify(state).slice(1, -1)}${pieces[1]}${JSON.stringify(device.answer)}}`, validUntil: Math.min(validUntil, device.refreshAfter) };
}

/** `.txt`: the flat fields, then lists and nested objects as prefixed lines. */
export function zoneInfoText(a: ZoneInfoAnswer): string {
  let out = textLines(a);
  out += `links: ${a.links.join(" ")}\n`;
  out += `countries: ${a.countries.map((c) => c.code).join(" ")}\n`;
  out += a.location ? textLines(a.location, "location.") : "location: \n";
  out += a.next_transition ? textLines(a.next_transition, "next_transition.") : "next_transition: \n";
  out += textLines(a.device_tz, "device_tz.");
  return out;
}
