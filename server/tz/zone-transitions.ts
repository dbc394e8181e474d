// The changes of a zone's local clock in a window of time: every instant where the UT
// offset, the abbreviation or the isdst flag changes, as zdump lists them. A stored
// transition or footer rule firing that changes none of the three (only the split of the
// offset into standard time and SAVE, or nothing at all) is not a change of the clock.

import { yearOfUnixSeconds } from "../core/calendar.ts";
import type { LocalTimeType } from "../formats/zone-model.ts";
import { firingsInYear } from "./rule-firings.ts";
import type { FooterData, ZoneTable } from "./zone-table.ts";

/** The most changes one answer lists; `nextFrom` says where the rest begin. */
export const MAX_TRANSITIONS_PER_ANSWER = 1000;

/** 10000-01-01T00:00:00Z: no window reaches past year 9999, so the footer walk always ends. */
const END_OF_YEAR_9999 = 253402300800;

export interface ClockChange {
  /** Unix seconds (UT) from which `after` holds. */
  at: number;
  before: LocalTimeType;
  after: LocalTimeType;
}

export interface ClockChanges {
  changes: ClockChange[];
  /** The instant of the first change left out by the cap (ask again from there); null when none was. */
  nextFrom: number | null;
}

/** True when a reader of the clock can tell the two types apart. */
export function isClockChange(a: LocalTimeType, b: LocalTimeType): boolean {
  return a.utoff !== b.utoff || a.abbr !== b.abbr || a.isdst !== b.isdst;
}

/**
 * The clock changes of `zone` at instants in [from, to), at most `limit` of them. Stored
 * transitions are walked by binary search; past the last one the footer rules are fired
 * year by year, as the footer evaluator in zone-table.ts does, without re-firing the
 * years around each step.
 */
export function clockChanges(table: ZoneTable, zone: number, from: number, to: number, limit = MAX_TRANSITIONS_PER_ANSWER): ClockChanges {
  const changes: ClockChange[] = [];
  const start = Math.ceil(from);
  const footer = table.footer(zone);
  const lastStored = table.lastStoredTransition(zone);
  // The period holding the second before `from`, so that a change exactly at `from` counts.
  let period = table.findPeriod(zone, start - 1);
  let before = period.type;
  while (period.end < to) {
    if (footer !== null && period.end > lastStored) {
      return footerChanges(footer, Math.max(start, lastStored + 1), Math.min(to, END_OF_YEAR_9999), before, changes, limit);
    }
    const at = period.end;
    period = table.findPeriod(zone, at);
    if (isClockChange(before, period.type)) {
      if (changes.length === limit) return { changes, nextFrom: at };
      changes.push({ at, before, after: period.type });
    }
    before = period.type;
  }
  return { changes, nextFrom: null };
}

/** Continues `changes` with the footer's firings at instants in [from, to), `before` being the type just before `from`. */
function footerChanges(footer: FooterData, from: number, to: number, before: LocalTimeType, changes: ClockChange[], limit: number): ClockChanges {
  const firstYear = yearOfUnixSeconds(from) - 1;
  let save = 0;
  // Two years fired before the first one settle the SAVE in force when it begins.
  for (let y = firstYear - 2; y < firstYear; y++) {
    for (const f of firingsInYear(footer.rules, y, footer.stdoff, save)) save = f.rule.save;
  }
  for (let y = firstYear; ; y++) {
    for (const f of firingsInYear(footer.rules, y, footer.stdoff, save)) {
      save = f.rule.save;
      if (f.at < from) continue;
      if (f.at >= to) return { changes, nextFrom: null };
      const after = f.rule.type;
      if (isClockChange(before, after)) {
        if (changes.length === limit) return { changes, nextFrom: f.at };
        changes.push({ at: f.at, before, after });
      }
      before = after;
    }
  }
}

/** The first clock change after instant `t` (exclusive), or null when the clock never changes again. */
export function nextClockChange(table: ZoneTable, zone: number, t: number): ClockChange | null {
  let period = table.findPeriod(zone, t);
  const before = period.type;
  while (period.end !== Infinity) {
    const at = period.end;
    period = table.findPeriod(zone, at);
    if (isClockChange(before, period.type)) return { at, before, after: period.type };
  }
  return null;
}

/** What a change does to the wall clock: jumps forward (a gap), back (an overlap), or neither. */
export type WallClockEffect = "gap" | "overlap" | "none";

export interface WallClockChange {
  /** The wall clock as the change approaches, seconds since 1970-01-01T00:00 on that clock ("02:00" for New York in March). */
  localBefore: number;
  /** The wall clock at the change ("03:00"). */
  localAt: number;
  effect: WallClockEffect;
}

export function wallClockChange(change: ClockChange): WallClockChange {
  const shift = change.after.utoff - change.before.utoff;
  return {
    localBefore: change.at + change.before.utoff,
    localAt: change.at + change.after.utoff,
    effect: shift > 0 ? "gap" : shift < 0 ? "overlap" : "none",
  };
}
