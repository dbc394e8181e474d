// Stage 3: one resolved zone -> its transitions, with zic's semantics (outzone() and the
// "Optimize" pass of writezone() in zic.c), so the result can be compared with zic+zdump
// transition for transition:
// - a zone line starts where the previous one's UNTIL ends, and that UNTIL is read with
//   the standard offset and SAVE in force just before it;
// - a rule firing at or after the UNTIL belongs to the next line, never to this one;
// - at a zone line's start, the SAVE and letters of the last rule that fired before it
//   (in this line's rule set) decide the offset and abbreviation;
// - a transition whose local time does not advance past the previous one replaces it.
// Transitions are stored up to the end of `horizonYear`; after that the footer's rules
// (the TO=max rules of the last line) are evaluated at run time. A rule with a year type
// (year-types.ts) fires only in the years of its type; where one runs to `max` in the last
// line (South Australia's, 92c-94f), no footer can say "every other year": as zic then does,
// the zone has no footer and no TZ string, and its transitions are stored through 9999,
// the last year any answer names.

import type { CompiledZone, Footer, LocalTimeType, Transition } from "../../server/formats/zone-model.ts";
import { sameType } from "../../server/formats/zone-model.ts";
import { SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import { daySpecToDays, firingsInYear, utcShift } from "../../server/tz/rule-firings.ts";
import type { RuleLine, Until } from "./parse.ts";
import type { ResolvedLine, ResolvedZone } from "./resolve.ts";
import { formatAbbreviation } from "./abbreviation.ts";
import { TzCompileError } from "./errors.ts";
import { posixTzString } from "./posix-tz.ts";
import { yearIsType } from "./year-types.ts";

/** The last year an answer can name (RFC 3339's four digits): a typed rule to `max` is stored through it. */
const LAST_ANSWERED_YEAR = 9999;

/** Whether the zone's last line has a rule that runs to `max` in the years of a type only. */
function typedForever(zone: ResolvedZone): boolean {
  return zone.lines[zone.lines.length - 1]!.ruleLines.some((r) => r.to === Infinity && r.yearType !== null);
}

/** The local time an UNTIL names, in seconds since the epoch as if it were UT. */
function untilLocalSeconds(until: Until): number {
  return daySpecToDays(until.year, until.month, until.daySpec) * SECONDS_PER_DAY + until.at;
}

function ruleType(line: ResolvedLine, rule: RuleLine): LocalTimeType {
  const utoff = line.stdoff + rule.save;
  const abbr = formatAbbreviation(line.format, rule.letters, rule.isdst, utoff);
  return { utoff, save: rule.save, isdst: rule.isdst, abbr: abbr ?? "" };
}

function failAt(line: ResolvedLine, reason: string): never {
  throw new TzCompileError(line.pos.file, line.pos.line, reason);
}

export function compileZone(zone: ResolvedZone, horizonYear: number, firstYear: number): CompiledZone {
  const added: Transition[] = [];
  let firstType: LocalTimeType | null = null; // zic's type 0, used by the Optimize pass
  let defaultType: LocalTimeType | null = null;
  const addType = (type: LocalTimeType) => {
    firstType ??= type;
    return type;
  };
  let startTime = 0;
  let save = 0;
  // zic's nonTZlimtime: the latest transition the TZ string cannot reproduce (a line's
  // start without rules, or a firing of a rule that ends or of a line that ends).
  let nonPosixLimit = -Infinity;
  const noFooter = typedForever(zone);

  zone.lines.forEach((line, index) => {
    let useStart = index > 0;
    const useUntil = index < zone.lines.length - 1;
    if (useUntil && line.until === null) failAt(line, "zone line without UNTIL is followed by another line");
    const stdoff = line.stdoff;
    save = 0;
    let startAbbr: string | null = null;
    let startOff = stdoff;

    if (line.ruleLines.length === 0) {
      const fixed = line.rules.kind === "fixed" ? line.rules : { save: 0, isdst: false };
      save = fixed.save;
      const utoff = stdoff + save;
      const abbr = formatAbbreviation(line.format, null, fixed.isdst, utoff);
      if (abbr === null) failAt(line, `FORMAT "${line.format}" uses %s but the line has no rules`);
      const type = addType({ utoff, save, isdst: fixed.isdst, abbr });
      if (useStart) {
        added.push({ at: startTime, type });
        nonPosixLimit = Math.max(nonPosixLimit, startTime);
        useStart = false;
      } else {
        defaultType = type;
      }
    } else {
      const untilLocal = useUntil ? untilLocalSeconds(line.until!) : 0;
      const lastYear = useUntil ? line.until!.year : noFooter ? LAST_ANSWERED_YEAR : horizonYear;
      let from = Infinity;
      for (const r of line.ruleLines) from = Math.min(from, r.from);
      for (let year = Math.max(from, firstYear); year <= lastYear; year++) {
        const active = line.ruleLines.filter((r) => r.from <= year && year <= r.to && yearIsType(year, r.yearType));
        if (active.length === 0) continue;
        for (const firing of firingsInYear(active, year, stdoff, save)) {
          const rule = firing.rule;
          if (useUntil) {
            const untilTime = untilLocal - utcShift(line.until!.atType, stdoff, save);
            if (firing.at >= untilTime) {
              if (startAbbr === null && stdoff + rule.save === startOff) startAbbr = ruleType(line, rule).abbr;
              break;
            }
          }
          save = rule.save;
          if (useStart && firing.at === startTime) useStart = false;
          if (useStart) {
            if (firing.at < startTime) {
              startOff = stdoff + save;
              startAbbr = ruleType(line, rule).abbr;
              continue;
            }
            if (startAbbr === null && startOff === stdoff + save) startAbbr = ruleType(line, rule).abbr;
          }
          const type = addType(ruleType(line, rule));
          if (defaultType === null && !rule.isdst) defaultType = type;
          added.push({ at: firing.at, type });
          if (useUntil || rule.to !== Infinity) nonPosixLimit = Math.max(nonPosixLimit, firing.at);
        }
      }
    }

    if (useStart) {
      const isdst = startOff !== stdoff;
      if (startAbbr === null) startAbbr = formatAbbreviation(line.format, null, isdst, startOff);
      if (startAbbr === null) failAt(line, "can't determine time zone abbreviation to use just after until time");
      const type = addType({ utoff: startOff, save: startOff - stdoff, isdst, abbr: startAbbr });
      if (defaultType === null && !isdst) defaultType = type;
      added.push({ at: startTime, type });
    }

    if (useUntil) {
      startTime = untilLocalSeconds(line.until!) - utcShift(line.until!.atType, stdoff, save);
    }
  });

  const initial = defaultType ?? firstType;
  if (initial === null) failAt(zone.lines[0]!, `zone ${zone.name} has no local time type`);
  return {
    initial,
    transitions: optimize(added, firstType!),
    footer: noFooter ? null : footerOf(zone),
    posixTz: noFooter ? null : posixTzString(zone),
    posixFrom: posixStart(added, nonPosixLimit),
  };
}

/** zic's TZstarttime: the earliest transition after nonTZlimtime, else nonTZlimtime itself. */
function posixStart(added: readonly Transition[], nonPosixLimit: number): number {
  let start = Infinity;
  for (const t of added) if (t.at > nonPosixLimit && t.at < start) start = t.at;
  return start === Infinity ? nonPosixLimit : start;
}

/**
 * zic's writezone() "Optimize" pass: sort by time; a transition whose local time is not
 * after the previous transition's local time overwrites it; one that changes nothing
 * is dropped. Two transitions at one instant (2008d's Sofia: a rule's firing and the zone
 * line's UNTIL, both 1945-04-02T01:00Z) both stay in zic's file, and a TZif reader answers
 * the later one there: the later overwrites the earlier, as zdump reads zic's output of
 * 2008d (today's and the era's).
 */
function optimize(added: Transition[], firstType: LocalTimeType): Transition[] {
  const sorted = added.map((t, i) => ({ t, i })).sort((a, b) => a.t.at - b.t.at || a.i - b.i).map((x) => x.t);
  const out: Transition[] = [];
  for (const t of sorted) {
    if (out.length > 0) {
      const prev = out[out.length - 1]!;
      const before = out.length === 1 ? firstType : out[out.length - 2]!.type;
      if (t.at === prev.at) {
        // The earlier of the two is never in force; if the later one changes nothing, neither stays.
        if (out.length > 1 && sameType(before, t.type)) out.pop();
        else out[out.length - 1] = { at: prev.at, type: t.type };
        continue;
      }
      if (t.at + prev.type.utoff <= prev.at + before.utoff) {
        out[out.length - 1] = { at: prev.at, type: t.type };
        continue;
      }
      if (sameType(prev.type, t.type)) continue;
    }
    out.push(t);
  }
  return out;
}

/** The TO=max rules of the last line, which keep firing after the stored transitions. */
function footerOf(zone: ResolvedZone): Footer | null {
  const last = zone.lines[zone.lines.length - 1]!;
  const forever = last.ruleLines.filter((r) => r.to === Infinity);
  if (forever.length === 0) return null;
  return {
    stdoff: last.stdoff,
    rules: forever.map((r) => ({
      month: r.month,
      daySpec: r.daySpec,
      at: r.at,
      atType: r.atType,
      save: r.save,
      type: ruleType(last, r),
    })),
  };
}
