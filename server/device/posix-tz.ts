// A POSIX TZ string as the C libraries of devices read it: glibc, musl and ESP-IDF's
// newlib (newlib/libc/time/tzset_r.c, tzcalc_limits.c, lcltime_r.c). All three pick the
// two rule instants of the UTC year of the instant asked about (not of the local year),
// then say DST when t lies in [start, end), or outside [end, start) when end comes first.
// That is not RFC 9636's reading near New Year (a rule at `0/0` or `J365/25` fires in a
// different UTC year than its local one), so a string is checked here the way devices
// run it. Only the forms all three read alike are accepted: 3-6 character abbreviations
// (musl keeps 6, newlib needs 3-10), rule times from 0 to 167 hours (newlib reads the
// hour with %hu, so `/-1` becomes 65535 hours), different standard and DST offsets
// (newlib's _daylight is false otherwise).

import { daysFromCivil, isLeapYear, SECONDS_PER_DAY, weekdayOfDays, yearOfUnixSeconds } from "../core/calendar.ts";

/** What the clock shows: as a time object names it. */
export interface ClockReading {
  utoff: number;
  abbr: string;
  isdst: boolean;
}

export type DateRule =
  | { kind: "J"; day: number }
  | { kind: "n"; day: number }
  | { kind: "M"; month: number; week: number; weekday: number };

export interface RuleTime {
  date: DateRule;
  /** Seconds after local midnight (standard time for the start, DST for the end). */
  time: number;
}

export interface PosixTz {
  std: ClockReading;
  dst: ClockReading | null;
  start: RuleTime | null;
  end: RuleTime | null;
}

/** Why a string is not one to give a device: the first form some libc misreads. */
export class UnsafePosixTz extends Error {}

const MAX_RULE_SECONDS = 167 * 3600;
const ABBREVIATION = /^[A-Za-z0-9+-]{3,6}$/;
const LETTERS = /^[A-Za-z]+$/;

/**
 * Reads `text`; throws UnsafePosixTz for anything outside the forms every device libc reads
 * alike (`signedRuleTimes`: read RFC 9636's signed rule times too, to rewrite them).
 */
export function parsePosixTz(text: string, options: { signedRuleTimes?: boolean } = {}): PosixTz {
  let i = 0;
  const fail = (why: string): never => {
    throw new UnsafePosixTz(`${text}: ${why} at ${i}`);
  };
  const abbr = (): string => {
    let a: string;
    if (text[i] === "<") {
      const close = text.indexOf(">", i);
      if (close < 0) fail("unclosed <");
      a = text.slice(i + 1, close);
      i = close + 1;
    } else {
      const m = /^[A-Za-z]+/.exec(text.slice(i)) ?? fail("abbreviation expected");
      a = m[0];
      i += a.length;
    }
    if (!ABBREVIATION.test(a)) fail(`abbreviation "${a}" is not 3-6 letters, digits or signs`);
    return a;
  };
  const hms = (): number => {
    const m = /^(\d{1,3})(?::(\d{2})(?::(\d{2}))?)?/.exec(text.slice(i)) ?? fail("time expected");
    i += m[0].length;
    return Number(m[1]) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  };
  const offset = (): number => {
    let sign = 1;
    if (text[i] === "-" || text[i] === "+") sign = text[i++] === "-" ? -1 : 1;
    const seconds = hms();
    if (seconds > 24 * 3600) fail("offset beyond 24 hours");
    // POSIX offsets are west-positive; a reading's utoff is east-positive.
    return -sign * seconds;
  };
  const rule = (): RuleTime => {
    let date: DateRule;
    const m = /^(?:J(\d{1,3})|(\d{1,3})|M(\d{1,2})\.(\d)\.(\d))/.exec(text.slice(i)) ?? fail("rule date expected");
    i += m[0].length;
    if (m[1] !== undefined) date = { kind: "J", day: Number(m[1]) };
    else if (m[2] !== undefined) date = { kind: "n", day: Number(m[2]) };
    else date = { kind: "M", month: Number(m[3]), week: Number(m[4]), weekday: Number(m[5]) };
    if (date.kind === "J" && (date.day < 1 || date.day > 365)) fail("Jn out of 1-365");
    if (date.kind === "n" && date.day > 365) fail("n out of 0-365");
    if (date.kind === "M" && (date.month < 1 || date.month > 12 || date.week < 1 || date.week > 5 || date.weekday > 6)) fail("Mm.w.d out of range");
    let time = 7200;
    if (text[i] === "/") {
      i++;
      let sign = 1;
      if (text[i] === "-" || text[i] === "+") {
        if (!options.signedRuleTimes) fail("signed rule time");
        sign = text[i++] === "-" ? -1 : 1;
      }
      time = sign * hms();
      if (time > MAX_RULE_SECONDS) fail("rule time beyond 167 hours");
    }
    return { date, time };
  };

  const stdAbbr = abbr();
  const std: ClockReading = { utoff: offset(), abbr: stdAbbr, isdst: false };
  if (i === text.length) return { std, dst: null, start: null, end: null };
  const dstAbbr = abbr();
  // Without rules each libc falls back to rules of its own (newlib: the US rules).
  if (i === text.length) fail("DST without rules");
  const dst: ClockReading = { utoff: text[i] === "," ? std.utoff + 3600 : offset(), abbr: dstAbbr, isdst: true };
  if (dst.utoff === std.utoff) fail("DST offset equals the standard offset");
  if (text[i] !== ",") fail("DST without rules");
  i++;
  const start = rule();
  if (text[i] !== ",") fail("second rule expected");
  i++;
  const end = rule();
  if (i !== text.length) fail("trailing text");
  return { std, dst, start, end };
}

/** `<+0545>` unless the abbreviation is letters only. */
export function quoteAbbreviation(abbr: string): string {
  return LETTERS.test(abbr) ? abbr : `<${abbr}>`;
}

/** `[-]h[:mm[:ss]]` for seconds (a POSIX offset: pass the west-positive value). */
export function posixHms(seconds: number): string {
  const sign = seconds < 0 ? "-" : "";
  let rest = Math.abs(seconds);
  const s = rest % 60;
  rest = (rest - s) / 60;
  const m = rest % 60;
  const h = (rest - m) / 60;
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  return `${sign}${h}${m !== 0 || s !== 0 ? `:${two(m)}${s !== 0 ? `:${two(s)}` : ""}` : ""}`;
}

function formatRule(r: RuleTime): string {
  const d = r.date;
  const date = d.kind === "J" ? `J${d.day}` : d.kind === "n" ? `${d.day}` : `M${d.month}.${d.week}.${d.weekday}`;
  return r.time === 7200 ? date : `${date}/${posixHms(r.time)}`;
}

/** The string for `tz`, in the shortest spelling (`/2` and a one-hour DST offset left out, as zic does). */
export function formatPosixTz(tz: PosixTz): string {
  const std = `${quoteAbbreviation(tz.std.abbr)}${posixHms(-tz.std.utoff)}`;
  if (tz.dst === null || tz.start === null || tz.end === null) return std;
  const dstOffset = tz.dst.utoff === tz.std.utoff + 3600 ? "" : posixHms(-tz.dst.utoff);
  return `${std}${quoteAbbreviation(tz.dst.abbr)}${dstOffset},${formatRule(tz.start)},${formatRule(tz.end)}`;
}

/** Days since 1970-01-01 of the rule's day in `year`, as tzcalc_limits.c and musl's rule_to_secs count it. */
export function ruleDay(date: DateRule, year: number): number {
  const jan1 = daysFromCivil(year, 1, 1);
  if (date.kind === "J") return jan1 + date.day - 1 + (isLeapYear(year) && date.day >= 60 ? 1 : 0);
  if (date.kind === "n") return jan1 + date.day;
  const first = daysFromCivil(year, date.month, 1);
  const monthDays = daysFromCivil(date.month === 12 ? year + 1 : year, date.month === 12 ? 1 : date.month + 1, 1) - first;
  let day = (date.weekday - weekdayOfDays(first) + 7) % 7 + (date.week - 1) * 7;
  while (day >= monthDays) day -= 7;
  return first + day;
}

/** The UT instants of the start and end rules in `year`. */
export function ruleInstants(tz: PosixTz, year: number): { start: number; end: number } {
  return {
    start: ruleDay(tz.start!.date, year) * SECONDS_PER_DAY + tz.start!.time - tz.std.utoff,
    end: ruleDay(tz.end!.date, year) * SECONDS_PER_DAY + tz.end!.time - tz.dst!.utoff,
  };
}

/**
 * The reading at unix second `t` with the rules of UTC year `year` (default: t's own).
 * Returns null when start and end coincide: glibc then says never DST, newlib and musl always.
 */
export function readingAt(tz: PosixTz, t: number, year = yearOfUnixSeconds(t)): ClockReading | null {
  if (tz.dst === null) return tz.std;
  const { start, end } = ruleInstants(tz, year);
  if (start === end) return null;
  const isdst = start < end ? t >= start && t < end : t >= start || t < end;
  return isdst ? tz.dst : tz.std;
}

export function sameReading(a: ClockReading, b: ClockReading): boolean {
  return a.utoff === b.utoff && a.abbr === b.abbr && a.isdst === b.isdst;
}
