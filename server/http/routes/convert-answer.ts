// The body of /convert: `time` read in zone `from` (a local date-time, resolved by
// `disambiguation` where the clock skips or repeats it) or taken as the instant it names
// (with an offset or Z, or unix seconds; `from` is then only echoed), answered as a time
// object in each zone. client_ip is null in both: the answer depends on the query alone,
// so an answer for a fixed time can be cached and shared.

import { daysFromCivil, daysInMonth, SECONDS_PER_DAY } from "../../core/calendar.ts";
import type { Instant } from "../../core/clock.ts";
import { formatDateTime } from "../../core/time-format.ts";
import { DISAMBIGUATIONS, instantOfLocal, type Disambiguation } from "../../tz/local-time.ts";
import type { ResolvedName, ZoneTable } from "../../tz/zone-table.ts";
import { buildTimeObject, timeObjectJson, timeObjectText, type Profile } from "../../time-object/time-object.ts";
import { checkLocalYears, MAX_SECONDS, MIN_SECONDS, parseAt } from "../params/at-param.ts";
import { badRequest } from "../pipeline/http-errors.ts";

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

export const invalidTime = () => badRequest("bad_time",
  "invalid time: use a local date-time such as 2026-03-08T02:30:00 (read in zone `from`), or an instant with an offset or Z, or unix seconds");
const outOfRange = () => badRequest("bad_time", "time out of range: years 0001-9999 only");
export const invalidDisambiguation = () => badRequest("bad_disambiguation",
  `invalid disambiguation: use one of ${DISAMBIGUATIONS.join(", ")}`);

/** A local date-time: seconds since 1970-01-01T00:00 on the local clock, and microseconds. */
export interface LocalDateTime {
  seconds: number;
  micros: number;
}

/** `time` when it has no offset; null when it names an instant instead. */
export function parseLocalDateTime(text: string): LocalDateTime | null {
  const m = LOCAL.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  // :60 (a leap second) is :59, as Temporal reads it (at-param.ts).
  const written = Number(m[6] ?? 0);
  const second = written === 60 ? 59 : written;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw invalidTime();
  }
  const micros = m[7] === undefined ? 0 : Number(m[7].slice(0, 6).padEnd(6, "0"));
  return { seconds: daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second, micros };
}

export function parseDisambiguation(text: string | undefined): Disambiguation {
  if (text === undefined || text === "") return "compatible";
  if ((DISAMBIGUATIONS as readonly string[]).includes(text)) return text as Disambiguation;
  throw invalidDisambiguation();
}

/** The instant `time` names, read in zone `from` when it is a local date-time. */
export function convertInstant(zones: ZoneTable, from: ResolvedName, time: string, mode: Disambiguation): Instant {
  if (time.length > 40) throw invalidTime();
  const local = parseLocalDateTime(time);
  if (local === null) {
    try {
      return parseAt(time);
    } catch (error) {
      // parseAt's messages name `at`; this parameter is `time`.
      throw error instanceof Error && error.message.includes("out of range") ? outOfRange() : invalidTime();
    }
  }
  const resolution = instantOfLocal(zones, from.zone, local.seconds, mode);
  if (resolution.instant === null) {
    const shown = formatDateTime(local.seconds);
    throw badRequest(resolution.kind === "skipped" ? "skipped_time" : "repeated_time", resolution.kind === "skipped"
      ? `${shown} is skipped in ${from.name}: the clock jumps over it (disambiguation=reject); use earlier or later`
      : `${shown} is repeated in ${from.name}: the clock shows it twice (disambiguation=reject); use earlier or later`);
  }
  if (resolution.instant < MIN_SECONDS || resolution.instant > MAX_SECONDS) throw outOfRange();
  return { seconds: resolution.instant, micros: local.micros };
}

/** Both answers print local date-times: each must fall in years 0001-9999 (see at-param.ts); the error names `time`. */
export function checkConvertYears(zones: ZoneTable, from: ResolvedName, to: ResolvedName, instant: Instant): void {
  for (const name of [from, to]) checkLocalYears(instant, zones.periodAt(name.zone, instant.seconds).type.utoff, name.name, "time");
}

export function convertBody(zones: ZoneTable, from: ResolvedName, to: ResolvedName, instant: Instant, profile: Profile, format: "json" | "text"): string {
  checkConvertYears(zones, from, to, instant);
  const a = buildTimeObject(zones, from, instant, null, profile);
  const b = buildTimeObject(zones, to, instant, null, profile);
  if (format === "json") return `{"from":${timeObjectJson(a)},"to":${timeObjectJson(b)}}`;
  const prefixed = (text: string, prefix: string) => text.split("\n").filter((l) => l !== "").map((l) => `${prefix}${l}\n`).join("");
  return prefixed(timeObjectText(a, profile), "from.") + prefixed(timeObjectText(b, profile), "to.");
}
