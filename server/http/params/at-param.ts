// `?at=`: the instant to answer for instead of now. Unix seconds with up to six fraction
// digits (`1759315363.821684`, negative allowed), or an RFC 3339 instant
// (`2026-11-21T10:00:00Z`, `2026-11-21T10:00:00.5+01:00`; fractions beyond microseconds
// are cut). Every instant from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z, so that
// every answer formats as RFC 3339; the zone's local time must be in those years too
// (checkLocalYears), which cuts a few hours at each end for zones away from UTC.
// A leap second (`2016-12-31T23:59:60Z`, valid RFC 3339) is read as Temporal reads it:
// clamped to :59 of the same minute (unix time has no 61st second to name). An offset's
// `+` sent unescaped arrives as a space (params/query.ts) and is read as `+`.

import { daysFromCivil, daysInMonth, SECONDS_PER_DAY } from "../../core/calendar.ts";
import type { Instant } from "../../core/clock.ts";
import { FIRST_RFC3339_SECOND as MIN_SECONDS, inRfc3339Years, LAST_RFC3339_SECOND as MAX_SECONDS } from "../../core/time-format.ts";
import type { ResolvedName } from "../../tz/zone-table.ts";
import type { RouteRequest } from "../contract.ts";
import { badRequest, HttpError } from "../pipeline/http-errors.ts";
import { queryParam } from "./query.ts";

/** The instants `at` may name (years 0001-9999 in UTC), for the routes that clamp windows to them. */
export { MAX_SECONDS, MIN_SECONDS };

const UNIX = /^(-?)(\d{1,12})(?:\.(\d{1,6}))?$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+ -])(\d{2}):(\d{2}))$/;

export const invalidAt = () => badRequest("bad_at",
  "invalid at: use unix seconds (up to 6 fraction digits) or an RFC 3339 instant such as 2026-11-21T10:00:00Z");
const outOfRange = () => badRequest("bad_at", "at out of range: years 0001-9999 only");

/** Refuses an instant whose local time in `zone` (`utoff` seconds east of UTC) is outside years 0001-9999; the error names `param`. */
export function checkLocalYears(instant: Instant, utoff: number, zone: string, param: "at" | "time" = "at"): void {
  if (!inRfc3339Years(instant.seconds + utoff)) {
    throw badRequest(`bad_${param}`, `${param} out of range: the local time in ${zone} at that instant is outside years 0001-9999`);
  }
}

function micros(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.slice(0, 6).padEnd(6, "0"));
}

export function parseAt(text: string): Instant {
  if (text.length > 40) throw invalidAt();
  const unix = UNIX.exec(text);
  if (unix) {
    let seconds = Number(unix[2]);
    let us = micros(unix[3]);
    if (unix[1] === "-") {
      // -1.25 is 1.25 s before the epoch: whole seconds -2, plus 750000 us.
      seconds = -seconds;
      if (us > 0) {
        seconds -= 1;
        us = 1_000_000 - us;
      }
    }
    if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw outOfRange();
    return { seconds, micros: us };
  }
  const m = RFC3339.exec(text);
  if (!m) throw invalidAt();
  const [year, month, day, hour, minute, written] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const second = written === 60 ? 59 : written;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw invalidAt();
  }
  let offset = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) throw invalidAt();
    offset = (m[9] === "-" ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const seconds = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offset;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw outOfRange();
  return { seconds, micros: micros(m[7]) };
}

/** An instant parameter in the `at` syntax; its errors name the parameter. */
export function instantParam(request: RouteRequest, name: string): Instant | undefined {
  const text = queryParam(request.query, name);
  if (text === undefined) return undefined;
  try {
    return parseAt(text ?? "\u0000"); // null: a broken percent-escape, refused as invalid
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw badRequest(error.code, error.message.replace(/^invalid at/, `invalid ${name}`).replace(/^at out of range/, `${name} out of range`));
  }
}

/** `?at=` for a time object in `zone` (`utoff` its offset then): the instant, or the clock's now; its local time checked. */
export function instantAt(request: RouteRequest, zone: ResolvedName): Instant {
  const at = instantParam(request, "at");
  if (at === undefined) return request.clock();
  checkLocalYears(at, request.data.zones.periodAt(zone.zone, at.seconds).type.utoff, zone.name);
  return at;
}
