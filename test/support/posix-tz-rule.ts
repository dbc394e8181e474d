// A POSIX TZ string read back and evaluated on its own (POSIX.1-2024 section 8.3 with
// RFC 9636's extensions: hours from -167 to 167 in rule times), independently of the
// tz compiler and the footer evaluator it checks: std offset, optional dst with its
// offset (default one hour ahead of std) and the two rules `Jn`, `n` or `Mm.w.d[/time]`.

import { daysFromCivil, daysInMonth, isLeapYear, SECONDS_PER_DAY, weekdayOfDays, yearOfUnixSeconds } from "../../server/core/calendar.ts";

export interface PosixType {
  utoff: number;
  abbr: string;
  isdst: boolean;
}

type DateRule = { kind: "J"; day: number } | { kind: "n"; day: number } | { kind: "M"; month: number; week: number; weekday: number };

export interface PosixZone {
  std: PosixType;
  dst: PosixType | null;
  start: { date: DateRule; time: number } | null;
  end: { date: DateRule; time: number } | null;
}

/** Reads a POSIX TZ string; throws on anything it does not fully consume. */
export function parsePosixTz(text: string): PosixZone {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`POSIX TZ "${text}": ${why} at ${i}`);
  };
  const abbr = (): string => {
    if (text[i] === "<") {
      const close = text.indexOf(">", i);
      if (close < 0) fail("unclosed <");
      const a = text.slice(i + 1, close);
      i = close + 1;
      return a;
    }
    const m = /^[A-Za-z]{3,}/.exec(text.slice(i)) ?? fail("abbreviation expected");
    i += m[0].length;
    return m[0];
  };
  const duration = (): number => {
    const m = /^([+-]?)(\d{1,3})(?::(\d\d))?(?::(\d\d))?/.exec(text.slice(i)) ?? fail("time expected");
    i += m[0].length;
    const s = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    return m[1] === "-" ? -s : s;
  };
  const dateRule = (): DateRule => {
    let m: RegExpExecArray | null;
    const rest = text.slice(i);
    if ((m = /^M(\d{1,2})\.(\d)\.(\d)/.exec(rest))) {
      i += m[0].length;
      return { kind: "M", month: Number(m[1]), week: Number(m[2]), weekday: Number(m[3]) };
    }
    if ((m = /^J(\d{1,3})/.exec(rest))) {
      i += m[0].length;
      return { kind: "J", day: Number(m[1]) };
    }
    if ((m = /^(\d{1,3})/.exec(rest))) {
      i += m[0].length;
      return { kind: "n", day: Number(m[1]) };
    }
    return fail("date rule expected");
  };
  const rule = () => {
    if (text[i] !== ",") fail("',' expected");
    i++;
    const date = dateRule();
    let time = 7200;
    if (text[i] === "/") {
      i++;
      time = duration();
    }
    return { date, time };
  };
  const stdAbbr = abbr();
  const std: PosixType = { abbr: stdAbbr, utoff: -duration(), isdst: false };
  if (i === text.length) return { std, dst: null, start: null, end: null };
  const dstAbbr = abbr();
  const dstUtoff = text[i] !== undefined && text[i] !== "," ? -duration() : std.utoff + 3600;
  const start = rule();
  const end = rule();
  if (i !== text.length) fail("trailing text");
  return { std, dst: { abbr: dstAbbr, utoff: dstUtoff, isdst: true }, start, end };
}

/** Days since 1970-01-01 of the day a date rule names in `year`. */
function ruleDay(year: number, r: DateRule): number {
  const jan1 = daysFromCivil(year, 1, 1);
  if (r.kind === "n") return jan1 + r.day;
  if (r.kind === "J") return jan1 + r.day - 1 + (isLeapYear(year) && r.day >= 60 ? 1 : 0);
  const first = daysFromCivil(year, r.month, 1);
  let day = first + ((r.weekday - weekdayOfDays(first) + 7) % 7) + 7 * (r.week - 1);
  while (day >= first + daysInMonth(year, r.month)) day -= 7; // week 5 means the last
  return day;
}

/** What the string says over [lo, hi): the type at lo, then each change at an instant in (lo, hi). */
export function posixChanges(zone: PosixZone, lo: number, hi: number): { initial: PosixType; changes: { at: number; type: PosixType }[] } {
  if (!zone.dst) return { initial: zone.std, changes: [] };
  const events: { at: number; type: PosixType }[] = [];
  for (let y = yearOfUnixSeconds(lo) - 1; y <= yearOfUnixSeconds(hi) + 1; y++) {
    // The start is read on standard time, the end on DST (the clocks in force before each).
    events.push({ at: ruleDay(y, zone.start!.date) * SECONDS_PER_DAY + zone.start!.time - zone.std.utoff, type: zone.dst });
    events.push({ at: ruleDay(y, zone.end!.date) * SECONDS_PER_DAY + zone.end!.time - zone.dst.utoff, type: zone.std });
  }
  events.sort((a, b) => a.at - b.at);
  let initial = events[0]!.type === zone.dst ? zone.std : zone.dst;
  const changes: { at: number; type: PosixType }[] = [];
  for (const e of events) {
    if (e.at <= lo) initial = e.type;
    else if (e.at < hi) {
      const last = changes.length > 0 ? changes[changes.length - 1]!.type : initial;
      if (last !== e.type) changes.push(e);
    }
  }
  return { initial, changes };
}
