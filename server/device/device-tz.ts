// A TZ string a device can set now: right from the instant asked about until `validUntil`
// (null: right for as long as these rules hold) on glibc, musl and newlib alike.
//
// zic's footer (`posix_tz`) describes a zone only from zic's TZstarttime on, and some
// footers use forms newlib misreads (America/Nuuk 2023-: `M3.5.0/-1`). So:
//   1. the footer itself, when it is safe and already right from `at` for good;
//   2. otherwise, of these, the one right for the longest time from `at` (the simplest on a
//      tie): the footer; a fixed offset; permanent DST as tzfile(5) writes it (`0/0,J365/25`);
//      the footer with each negative rule time moved onto the day before; one year's rules
//      as `Jn` days taken from the next changes of the table.
// Every candidate is checked against the table by string-check.ts, the way devices read it.

import { daysFromCivil, isLeapYear, SECONDS_PER_DAY, yearOfUnixSeconds } from "../core/calendar.ts";
import type { LocalTimeType } from "../formats/zone-model.ts";
import type { ZoneTable } from "../tz/zone-table.ts";
import { clockChanges } from "../tz/zone-transitions.ts";
import {
  formatPosixTz, parsePosixTz, ruleInstants, UnsafePosixTz, type ClockReading, type PosixTz, type RuleTime,
} from "./posix-tz.ts";
import { END_OF_DATA, firstMismatch } from "./string-check.ts";

export interface DeviceTz {
  posixTz: string;
  /** Unix seconds of the first instant the string is wrong; null: never, on these rules. */
  validUntil: number | null;
}

const HOUR = 3600;
const DAY = SECONDS_PER_DAY;
const YEAR = 365 * DAY;
/** Footer rules repeat with the Gregorian calendar: 400 years checked cover all of them. */
const CYCLE = 146097 * DAY;
const MAX_RULE_SECONDS = 167 * HOUR;

const reading = (t: LocalTimeType): ClockReading => ({ utoff: t.utoff, abbr: t.abbr, isdst: t.isdst });
const same = (a: ClockReading, b: ClockReading) => a.utoff === b.utoff && a.abbr === b.abbr && a.isdst === b.isdst;

/** A rule day and time for a change at `instant` on a clock at `utoff`, counted in the instant's UTC year as the libcs count it. */
export function julianRule(instant: number, utoff: number): RuleTime | null {
  const year = yearOfUnixSeconds(instant);
  const local = instant + utoff - daysFromCivil(year, 1, 1) * DAY;
  // West of UTC, a change in the first hours of a UTC year is still last year locally: no hour >= 0 says it.
  if (local < 0) return null;
  const day = Math.floor(local / DAY);
  let time = local - day * DAY;
  let julian: number;
  if (isLeapYear(year) && day === 59) {
    julian = 59; // 29 February has no Jn: 28 February plus a day
    time += DAY;
  } else {
    julian = isLeapYear(year) && day > 59 ? day : day + 1;
  }
  if (julian > 365) {
    time += (julian - 365) * DAY;
    julian = 365;
  }
  return time > MAX_RULE_SECONDS ? null : { date: { kind: "J", day: julian }, time };
}

/** A numeric abbreviation as tzdb writes one (`-05`, `+0530`), for a standard time the zone never shows. */
function numericAbbr(utoff: number): string {
  const sign = utoff < 0 ? "-" : "+";
  const m = Math.abs(utoff) / 60;
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  return `${sign}${two(Math.floor(m / 60))}${m % 60 !== 0 ? two(Math.floor(m % 60)) : ""}`;
}

/** The footer with each negative rule time moved onto the day before (`M3.5.0/-1` -> `M3.5.6/23`); null when none is negative. */
function shiftedFooter(footer: string): PosixTz | null {
  let tz: PosixTz;
  try {
    tz = parsePosixTz(footer, { signedRuleTimes: true });
  } catch (error) {
    if (error instanceof UnsafePosixTz) return null;
    throw error;
  }
  if (tz.start === null || tz.end === null || (tz.start.time >= 0 && tz.end.time >= 0)) return null;
  const shift = (rule: RuleTime): RuleTime | null => {
    if (rule.time >= 0) return rule;
    const days = Math.ceil(-rule.time / DAY);
    const time = rule.time + days * DAY;
    const d = rule.date;
    // Mm.w.d on the weekday before is the same day in most years, not all: string-check.ts finds the first that differs.
    if (d.kind === "M") return { date: { ...d, weekday: (((d.weekday - days) % 7) + 7) % 7 }, time };
    const day = d.day - days;
    return day < (d.kind === "J" ? 1 : 0) ? null : { date: { kind: d.kind, day }, time };
  };
  const start = shift(tz.start);
  const end = shift(tz.end);
  return start && end ? { ...tz, start, end } : null;
}

interface Candidate {
  tz: PosixTz;
  text: string;
  /** One year's rules put just before `at`: a new string each hour of `at`. */
  hourly?: boolean;
}

/** What the answer at `at` depends on: the first instant after it where it may change (below). */
interface Span {
  /** Where any input but the hour of `at` may change. */
  until: number;
  /** Where the hourly candidates may change (Infinity: none was tried). */
  hourly: number;
  /** Whether the candidates were chosen by the hour of `at` (one year's rules put just before it). */
  byHour: boolean;
}

/** The device string at `at`, and where it may change (device-intervals.ts walks a zone's whole range with these). */
export interface SteadyDeviceTz {
  tz: DeviceTz;
  /** Every second in [at, until) has this same answer. */
  until: number;
  /**
   * Every second in [at, stretchUntil) has an answer of this one's kind: this same answer
   * (perInstant false), or one worked out for each instant (perInstant true: one year's rules
   * put just before the instant, a new string each hour; or no form right, due at once).
   */
  perInstant: boolean;
  stretchUntil: number;
}

/** Per zone: the instant from which zic's footer is right for good on device libcs (Infinity: never, or unsafe). */
export class DeviceStrings {
  private readonly footerFrom = new Map<number, number>();
  /** Each zone's footer, parsed once (a zone's /info and /device ask on every request). */
  private readonly footers = new Map<number, Candidate | null>();

  constructor(private readonly table: ZoneTable) {}

  /** The device string for `zone` at unix second `at`. */
  at(zone: number, at: number): DeviceTz {
    return this.steady(zone, at).tz;
  }

  /**
   * The device string for `zone` at unix second `at`, and how long it holds. The answer
   * depends on `at` only through the table's period, the changes of the year ahead, each
   * candidate's first mismatch from `at` and, for one year's rules put just before `at`,
   * the hour; the bounds are the first instants any of these can move. They may split a
   * stretch of equal answers, never join two different ones.
   */
  steady(zone: number, at: number): SteadyDeviceTz {
    const footer = this.footer(zone);
    const footerFrom = footer === null ? Infinity : this.footerRightFrom(zone, footer);
    if (at >= footerFrom) return { tz: { posixTz: footer!.text, validUntil: null }, until: Infinity, perInstant: false, stretchUntil: Infinity };
    const span: Span = { until: footerFrom, hourly: Infinity, byHour: false };
    let best: { candidate: Candidate; until: number } | null = null;
    const horizon = Math.min(END_OF_DATA, Math.max(at, this.periodicFrom(zone)) + CYCLE);
    for (const candidate of this.candidates(zone, at, footer, span)) {
      const until = firstMismatch(this.table, zone, candidate.tz, at, horizon) ?? Infinity;
      // Right from `at`: right, with the same first mismatch, up to it. Wrong: until it can show the table's reading.
      const holds = until > at ? until : wrongUntil(candidate.tz, at, reading(this.table.findPeriod(zone, at).type));
      if (candidate.hourly) span.hourly = Math.min(span.hourly, holds);
      else span.until = Math.min(span.until, holds);
      if (until > at && (best === null || until > best.until)) best = { candidate, until };
      if (until === Infinity) break;
    }
    if (best === null) {
      // No form is right even now (no 2026f zone needs this): the fixed reading, due at once.
      const now = reading(this.table.findPeriod(zone, at).type);
      return { tz: { posixTz: formatPosixTz({ std: { ...now, isdst: false }, dst: null, start: null, end: null }), validUntil: at }, until: at + 1, perInstant: true, stretchUntil: span.until };
    }
    const tz = { posixTz: best.candidate.text, validUntil: best.until === Infinity || best.until >= END_OF_DATA ? null : best.until };
    return { tz, until: Math.min(span.until, span.hourly), perInstant: span.byHour, stretchUntil: span.byHour ? span.until : Math.min(span.until, span.hourly) };
  }

  /** The footer as a safe string, or null when zic writes none or it uses a form some libc misreads. */
  private footer(zone: number): Candidate | null {
    let footer = this.footers.get(zone);
    if (footer === undefined) this.footers.set(zone, (footer = this.parsedFooter(zone)));
    return footer;
  }

  private parsedFooter(zone: number): Candidate | null {
    const posix = this.table.posixTz(zone);
    if (posix === null) return null;
    try {
      return { tz: parsePosixTz(posix.tz), text: posix.tz };
    } catch (error) {
      if (error instanceof UnsafePosixTz) return null;
      throw error;
    }
  }

  /** From here on the table repeats its footer rules (stored transitions included). */
  private periodicFrom(zone: number): number {
    const from = Math.max(this.table.posixTz(zone)?.from ?? -Infinity, this.table.lastStoredTransition(zone));
    return from === -Infinity ? 0 : from;
  }

  /** The build's check where the table has it (zones.bin from minor 2), else made here once. */
  private footerRightFrom(zone: number, footer: Candidate): number {
    let from = this.table.checkedDeviceFooterFrom(zone) ?? this.footerFrom.get(zone);
    if (from === undefined) {
      from = this.checkFooter(zone, footer);
      this.footerFrom.set(zone, from);
    }
    return from;
  }

  /**
   * From when the zone's footer is right for good on device libcs: its TZstarttime if the
   * string matches the table over a whole 400-year cycle from there, else Infinity. A walk
   * of 400 years (0.1-1 ms a zone): the build makes it for every zone (footerChecks).
   */
  footerCheck(zone: number): number {
    const footer = this.footer(zone);
    return footer === null ? Infinity : this.checkFooter(zone, footer);
  }

  private checkFooter(zone: number, footer: Candidate): number {
    const posixFrom = this.table.posixTz(zone)!.from;
    const checkFrom = posixFrom === -Infinity ? 0 : posixFrom;
    const end = Math.min(END_OF_DATA, Math.max(checkFrom, this.periodicFrom(zone)) + CYCLE);
    return firstMismatch(this.table, zone, footer.tz, checkFrom, end) === null ? posixFrom : Infinity;
  }

  /** `span` is lowered to the first instants after `at` where the candidates may differ. */
  private *candidates(zone: number, at: number, footer: Candidate | null, span: Span): Generator<Candidate> {
    const make = (tz: PosixTz): Candidate | null => {
      const text = formatPosixTz(tz);
      try {
        return { tz: parsePosixTz(text), text };
      } catch (error) {
        if (error instanceof UnsafePosixTz) return null;
        throw error;
      }
    };
    const now = this.table.findPeriod(zone, at);
    span.until = Math.min(span.until, now.end);
    const here = reading(now.type);
    if (footer !== null) yield footer;
    if (!here.isdst) yield* present(make({ std: here, dst: null, start: null, end: null }));

    // The standard and DST clocks of the coming year, and the first change into each.
    let std: ClockReading | null = here.isdst ? null : here;
    let dst: ClockReading | null = here.isdst ? here : null;
    let toDst: number | null = null;
    let toStd: number | null = null;
    let before = here;
    // The year ahead takes in its next change (or stops at the end of the data) a second after `at` reaches a year before it.
    const entering = at + YEAR < END_OF_DATA ? clockChanges(this.table, zone, at + YEAR, END_OF_DATA, 1).changes[0] : undefined;
    span.until = Math.min(span.until, entering === undefined ? Infinity : entering.at - YEAR + 1, at + YEAR < END_OF_DATA ? END_OF_DATA - YEAR + 1 : Infinity);
    for (const change of clockChanges(this.table, zone, at + 1, Math.min(END_OF_DATA, at + YEAR), 8).changes) {
      const after = reading(change.after);
      const slot = after.isdst ? dst : std;
      if (slot !== null && !same(slot, after)) break;
      if (after.isdst) dst = after;
      else std = after;
      if (after.isdst && !before.isdst) toDst ??= change.at;
      if (!after.isdst && before.isdst) toStd ??= change.at;
      before = after;
    }
    if (dst === null) return;
    if (std === null) {
      // DST all year: name the standard time it is DST from (what came before, or one hour back).
      const previous = now.start === -Infinity ? null : reading(this.table.findPeriod(zone, now.start - 1).type);
      const utoff = previous && !previous.isdst && previous.utoff !== dst.utoff ? previous.utoff : dst.utoff - (now.type.save > 0 ? now.type.save : HOUR);
      std = previous && !previous.isdst && previous.utoff === utoff ? previous : { utoff, abbr: numericAbbr(utoff), isdst: false };
    }
    if (here.isdst) {
      const endTime = DAY + (dst.utoff - std.utoff);
      if (endTime >= 0) yield* present(make({ std, dst, start: { date: { kind: "n", day: 0 }, time: 0 }, end: { date: { kind: "J", day: 365 }, time: endTime } }));
    }
    const shifted = footer === null && this.table.posixTz(zone) !== null ? shiftedFooter(this.table.posixTz(zone)!.tz) : null;
    if (shifted !== null) yield* present(make(shifted));

    // One year's rules: the next change into each clock; one not coming within the year is
    // put just before `at`, so the string holds until that day comes round again.
    const floors = (utoff: number) => {
      span.byHour = true;
      span.hourly = Math.min(span.hourly, (Math.floor((at + utoff) / HOUR) + 1) * HOUR - utoff); // the next hour: other floors
      return [Math.floor((at + utoff) / DAY) * DAY - utoff, Math.floor((at + utoff) / HOUR) * HOUR - utoff];
    };
    const starts = toDst !== null ? [toDst] : here.isdst ? floors(std.utoff) : [];
    for (const start of starts) {
      const ends = toStd !== null ? [toStd] : !here.isdst ? floors(dst.utoff) : [start - 1];
      for (const end of ends) {
        const startRule = julianRule(start, std.utoff);
        const endRule = julianRule(end, dst.utoff);
        const candidate = startRule && endRule ? make({ std, dst, start: startRule, end: endRule }) : null;
        if (candidate !== null) yield { ...candidate, hourly: toDst === null || toStd === null };
      }
    }
  }
}

/**
 * For a string wrong at `at` while the table shows `truth`: the first instant after `at`
 * where it may be right again before the table changes. Only at the next second when `at`
 * opens a UTC year (musl's reading of that one second), else where its reading changes to
 * `truth`: never, if neither of its clocks is `truth`.
 */
function wrongUntil(tz: PosixTz, at: number, truth: ClockReading): number {
  const year = yearOfUnixSeconds(at);
  if (at === daysFromCivil(year, 1, 1) * DAY) return at + 1;
  if (!same(tz.std, truth) && (tz.dst === null || !same(tz.dst, truth))) return Infinity;
  let next = daysFromCivil(year + 1, 1, 1) * DAY;
  if (tz.dst === null) return next;
  const { start, end } = ruleInstants(tz, year);
  for (const p of [start, end]) if (p > at && p < next) next = p;
  return next;
}

function* present<T>(value: T | null): Generator<T> {
  if (value !== null) yield value;
}

/** When a device should ask again: a day before the string goes wrong (half the time left if less), or a month on. */
export function refreshAfter(at: number, validUntil: number | null): number {
  if (validUntil === null) return Math.floor(at / DAY) * DAY + 30 * DAY;
  return validUntil - Math.min(DAY, Math.floor((validUntil - at) / 2));
}

const byTable = new WeakMap<ZoneTable, DeviceStrings>();

/** Every zone's footer check (footerCheck), for the build to store in zones.bin. */
export function footerChecks(table: ZoneTable): Float64Array {
  const strings = new DeviceStrings(table);
  return Float64Array.from({ length: table.zoneCount }, (_, zone) => strings.footerCheck(zone));
}

/**
 * The device strings of a loaded table's compiled zones (their per-zone cache lives and
 * dies with them): every tzdb release's table shares one, so each stored version's footer
 * is checked once, not once per release (a /device list per release cost 240 ms each).
 */
export function deviceStringsOf(table: ZoneTable): DeviceStrings {
  const compiled = table.compiled;
  let strings = byTable.get(compiled);
  if (strings === undefined) byTable.set(compiled, (strings = new DeviceStrings(compiled)));
  return strings;
}
