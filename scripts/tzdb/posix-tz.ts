// The POSIX TZ string zic writes as a TZif file's footer (RFC 9636 section 3.3), computed
// the way zic.c's stringzone()/stringrule()/stringoffset()/doabbr() compute it (ported
// from tzcode's zic.c of 2026; test/tz/posix-tz.test.ts holds it against the machine's
// zic for every name), so `posix_tz` is byte-for-byte what `tail -1` of a compiled TZif
// file says. Only the last Zone line matters: its rule
// set's latest standard and latest DST rule, its FORMAT and its standard offset.

import { DayKind, TimeType } from "../../server/tz/rule-firings.ts";
import { formatAbbreviation } from "./abbreviation.ts";
import type { RuleLine } from "./parse.ts";
import type { ResolvedLine, ResolvedZone } from "./resolve.ts";

/** The fields of a Rule line stringzone() reads; zic fakes two of these for all-year DST. */
interface PosixRule {
  /** 1..12 */
  month: number;
  kind: DayKind;
  day: number;
  weekday: number;
  at: number;
  atType: TimeType;
  save: number;
  isdst: boolean;
  letters: string | null;
  /** Last year (Infinity for `max`), for rule_cmp(). */
  to: number;
}

/** The zone line fields doabbr() reads (zic's fake `XXX` line for all-year DST is one). */
interface PosixLine {
  stdoff: number;
  format: string;
}

const COMMON_MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const LEAP_MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const HOUR = 3600;
const DAY = 86400;

/** zic's r_dayofmonth: `lastSun` is stored as "Sun<=" the month's leap-year length. */
function dayOfMonth(rule: PosixRule): number {
  return rule.kind === DayKind.LastWeekday ? LEAP_MONTH_DAYS[rule.month - 1]! : rule.day;
}

/** zic's rule_cmp(): later TO year wins; among finite ones, later month, then later day. */
function ruleCompare(a: PosixRule | null, b: PosixRule | null): number {
  if (!a) return b ? -1 : 0;
  if (!b) return 1;
  if (a.to !== b.to) return a.to < b.to ? -1 : 1;
  if (a.to === Infinity) return 0;
  if (a.month !== b.month) return a.month - b.month;
  return dayOfMonth(a) - dayOfMonth(b);
}

/** zic's stringoffset(): `[-]h[:mm[:ss]]`, or null at or beyond 168 hours. */
export function posixOffset(seconds: number): string | null {
  const sign = seconds < 0 ? "-" : "";
  let rest = Math.abs(seconds);
  const s = rest % 60;
  rest = (rest - s) / 60;
  const m = rest % 60;
  const h = (rest - m) / 60;
  if (h >= 24 * 7) return null;
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  return `${sign}${h}${m !== 0 || s !== 0 ? `:${two(m)}${s !== 0 ? `:${two(s)}` : ""}` : ""}`;
}

/** zic's doabbr() with quoting: `<+0545>` unless the abbreviation is letters only. */
function quotedAbbreviation(line: PosixLine, letters: string | null, isdst: boolean, save: number): string {
  // zic prints a %s FORMAT with no rule letters as the literal "%s"; no 2026f zone does.
  const abbr = formatAbbreviation(line.format, letters, isdst, line.stdoff + save) ?? line.format;
  return /^[A-Za-z]+$/.test(abbr) ? abbr : `<${abbr}>`;
}

/** zic's stringrule(): `Mm.w.d`, `Jn` or `n`, then `/time` unless it is 2:00. */
function posixRule(rule: PosixRule, dstSave: number, stdoff: number): string | null {
  let tod = rule.at;
  let date: string;
  if (rule.kind === DayKind.Fixed) {
    if (rule.day === 29 && rule.month === 2) return null;
    let total = 0;
    for (let m = 0; m < rule.month - 1; m++) total += COMMON_MONTH_DAYS[m]!;
    // zic omits the "J" in January and February, as that is shorter.
    date = rule.month <= 2 ? `${total + rule.day - 1}` : `J${total + rule.day}`;
  } else {
    const dom = dayOfMonth(rule);
    let wday = rule.weekday;
    let week: number;
    if (rule.kind === DayKind.WeekdayOnOrAfter) {
      const shift = (dom - 1) % 7;
      wday -= shift;
      tod += shift * DAY;
      week = 1 + Math.floor((dom - 1) / 7);
    } else if (dom === LEAP_MONTH_DAYS[rule.month - 1]) {
      week = 5;
    } else {
      const shift = dom % 7;
      wday -= shift;
      tod += shift * DAY;
      week = Math.floor(dom / 7);
    }
    if (wday < 0) wday += 7;
    date = `M${rule.month}.${week}.${wday}`;
  }
  if (rule.atType === TimeType.Universal) tod += stdoff;
  if (rule.atType !== TimeType.Wall && !rule.isdst) tod += dstSave;
  if (tod === 2 * HOUR) return date;
  const time = posixOffset(tod);
  return time === null ? null : `${date}/${time}`;
}

function fromRuleLine(r: RuleLine): PosixRule {
  return {
    month: r.month, kind: r.daySpec.kind, day: r.daySpec.day, weekday: r.daySpec.weekday,
    at: r.at, atType: r.atType, save: r.save, isdst: r.isdst, letters: r.letters, to: r.to,
  };
}

/**
 * zic's stringzone(): the footer for `zone`, or null where zic writes an empty one (two
 * rules of one kind in force forever, a Feb 29 rule, an offset of a week or more).
 */
export function posixTzString(zone: ResolvedZone): string | null {
  const last: ResolvedLine = zone.lines[zone.lines.length - 1]!;
  const latest: [PosixRule | null, PosixRule | null] = [null, null];
  for (const r of last.ruleLines) {
    const rule = fromRuleLine(r);
    const slot = rule.isdst ? 1 : 0;
    const cmp = ruleCompare(latest[slot], rule);
    if (cmp < 0) latest[slot] = rule;
    else if (cmp === 0) return null;
  }
  let [stdRule, dstRule] = latest;
  const fixed = last.rules.kind === "fixed" ? last.rules : null;
  const dstCompare = last.ruleLines.length > 0 ? ruleCompare(dstRule, stdRule) : fixed?.isdst ? 1 : -1;
  let stdLine: PosixLine = last;
  let dstLine: PosixLine = last;

  if (dstCompare < 0) {
    dstRule = null; // standard time all year
  } else if (dstCompare > 0) {
    // DST all year: zic writes e.g. "XXX3EDT4,0/0,J365/23" for EDT (-04) all year.
    const save = dstRule ? dstRule.save : fixed?.save ?? 0;
    if (save >= 0) {
      // Positive DST: zic fakes a zone with negative DST.
      stdLine = { stdoff: last.stdoff + 2 * save, format: "XXX" };
      dstLine = { stdoff: stdLine.stdoff, format: last.format };
    }
    const fakeSave = save < 0 ? save : -save;
    const fake = { kind: DayKind.Fixed, weekday: 0, atType: TimeType.Wall, to: Infinity } as const;
    const fakeDst: PosixRule = { ...fake, month: 1, day: 1, at: 0, save: fakeSave, isdst: true, letters: dstRule?.letters ?? null };
    const fakeStd: PosixRule = {
      ...fake, month: 12, day: 31, at: DAY + fakeSave, save: 0, isdst: false,
      letters: save < 0 && stdRule ? stdRule.letters : null,
    };
    dstRule = fakeDst;
    stdRule = fakeStd;
  }

  const stdOffset = posixOffset(-stdLine.stdoff);
  if (stdOffset === null) return null;
  const std = quotedAbbreviation(stdLine, stdRule?.letters ?? null, false, 0) + stdOffset;
  if (dstRule === null) return std;
  let dst = quotedAbbreviation(dstLine, dstRule.letters, dstRule.isdst, dstRule.save);
  if (dstRule.save !== HOUR) {
    const dstOffset = posixOffset(-(dstLine.stdoff + dstRule.save));
    if (dstOffset === null) return null;
    dst += dstOffset;
  }
  const start = posixRule(dstRule, dstRule.save, stdLine.stdoff);
  const end = posixRule(stdRule!, dstRule.save, stdLine.stdoff);
  if (start === null || end === null) return null;
  return `${std}${dst},${start},${end}`;
}
