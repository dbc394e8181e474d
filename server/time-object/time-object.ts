// The time object: what /timezone/{name} and /ip answer, field by field as DESIGN.md
// tabulates it, in its fixed key order. Two profiles differ only in how a UTC instant is
// written: the specification's `Z` at the root, WorldTimeAPI's `+00:00` under /api.

import { civilFromDays, dayOfYear, isoWeekNumber, SECONDS_PER_DAY, weekdayOfDays } from "../core/calendar.ts";
import type { Instant } from "../core/clock.ts";
import { formatDateTime, formatOffset, inRfc3339Years, pad6 } from "../core/time-format.ts";
import type { ResolvedName, ZoneTable } from "../tz/zone-table.ts";

export type Profile = "spec" | "wta";
/** How a time object is written: compact JSON, or `key: value` lines (`.txt`). */
export type Format = "json" | "text";

export interface TimeObject {
  utc_offset: string;
  timezone: string;
  day_of_week: number;
  day_of_year: number;
  datetime: string;
  utc_datetime: string;
  unixtime: number;
  raw_offset: number;
  week_number: number;
  dst: boolean;
  abbreviation: string;
  dst_offset: number;
  dst_from: string | null;
  dst_until: string | null;
  client_ip: string | null;
}

export const TIME_OBJECT_KEYS: readonly (keyof TimeObject)[] = [
  "utc_offset", "timezone", "day_of_week", "day_of_year", "datetime", "utc_datetime", "unixtime",
  "raw_offset", "week_number", "dst", "abbreviation", "dst_offset", "dst_from", "dst_until", "client_ip",
];

/** How a profile writes UTC after an instant: `Z` at the root, `+00:00` under /api. */
export const utcSuffix = (profile: Profile) => (profile === "wta" ? "+00:00" : "Z");

/** `fraction` replaces the six microsecond digits (the renderer's template marker). */
export function buildTimeObject(
  table: ZoneTable,
  name: ResolvedName,
  instant: Instant,
  clientIp: string | null,
  profile: Profile,
  fraction = `.${pad6(instant.micros)}`,
): TimeObject {
  const { seconds } = instant;
  const { type } = table.periodAt(name.zone, seconds);
  const dstOffset = type.isdst ? type.save : 0;
  const local = seconds + type.utoff;
  const localDays = Math.floor(local / SECONDS_PER_DAY);
  const offset = formatOffset(type.utoff);
  let dstFrom: string | null = null;
  let dstUntil: string | null = null;
  if (type.isdst) {
    // An end that RFC 3339 cannot write (the summer of 9999 that ends in 10000) is null.
    const run = table.dstRunAt(name.zone, seconds);
    if (run && inRfc3339Years(run.from)) dstFrom = formatDateTime(run.from) + utcSuffix(profile);
    if (run && inRfc3339Years(run.until)) dstUntil = formatDateTime(run.until) + utcSuffix(profile);
  }
  return {
    utc_offset: offset,
    timezone: name.name,
    day_of_week: weekdayOfDays(localDays),
    day_of_year: dayOfYear(civilFromDays(localDays)),
    datetime: formatDateTime(local) + fraction + offset,
    utc_datetime: formatDateTime(seconds) + fraction + utcSuffix(profile),
    unixtime: seconds,
    raw_offset: type.utoff - dstOffset,
    week_number: isoWeekNumber(localDays),
    dst: type.isdst,
    abbreviation: type.abbr,
    dst_offset: dstOffset,
    dst_from: dstFrom,
    dst_until: dstUntil,
    client_ip: clientIp,
  };
}

/** Compact JSON in the fixed key order, built from pieces (every string value is plain ASCII from our own tables or formatters, escaped once with JSON.stringify). */
export function timeObjectJson(o: TimeObject): string {
  const str = (s: string | null) => (s === null ? "null" : JSON.stringify(s));
  return `{"utc_offset":"${o.utc_offset}","timezone":${JSON.stringify(o.timezone)},"day_of_week":${o.day_of_week},` +
    `"day_of_year":${o.day_of_year},"datetime":"${o.datetime}","utc_datetime":"${o.utc_datetime}",` +
    `"unixtime":${o.unixtime},"raw_offset":${o.raw_offset},"week_number":${o.week_number},"dst":${o.dst},` +
    `"abbreviation":${JSON.stringify(o.abbreviation)},"dst_offset":${o.dst_offset},"dst_from":${str(o.dst_from)},` +
    `"dst_until":${str(o.dst_until)},"client_ip":${str(o.client_ip)}}`;
}

/**
 * `key: value` lines, a null as an empty value. At the root in the JSON key order; under
 * /api in WorldTimeAPI's order, which was alphabetical.
 */
export function timeObjectText(o: TimeObject, profile: Profile): string {
  const keys = profile === "wta" ? [...TIME_OBJECT_KEYS].sort() : TIME_OBJECT_KEYS;
  let out = "";
  for (const key of keys) {
    const value = o[key];
    out += `${key}: ${value === null ? "" : String(value)}\n`;
  }
  return out;
}
