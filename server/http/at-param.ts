// `?at=`: the instant to answer for instead of now. Unix seconds with up to six fraction
// digits (`1759315363.821684`, negative allowed), or an RFC 3339 instant
// (`2026-11-21T10:00:00Z`, `2026-11-21T10:00:00.5+01:00`; fractions beyond microseconds
// are cut). Years 0001-9999 only, so every answer formats as RFC 3339.

import { daysFromCivil, daysInMonth, SECONDS_PER_DAY } from "../core/calendar.ts";
import type { Instant } from "../core/clock.ts";
import { badRequest } from "./http-errors.ts";

const MIN_SECONDS = daysFromCivil(1, 1, 1) * SECONDS_PER_DAY + 86400; // a day of margin for any offset
const MAX_SECONDS = daysFromCivil(10000, 1, 1) * SECONDS_PER_DAY - 86400 - 1;

const UNIX = /^(-?)(\d{1,12})(?:\.(\d{1,6}))?$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export const invalidAt = () => badRequest("bad_at",
  "invalid at: use unix seconds (up to 6 fraction digits) or an RFC 3339 instant such as 2026-11-21T10:00:00Z");
const outOfRange = () => badRequest("bad_at", "at out of range: years 0001-9999 only");

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
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
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
