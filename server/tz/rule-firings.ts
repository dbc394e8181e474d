// When the rules of a zic Rule set fire within a year, in zic's order. The tz compiler
// (scripts/tzdb/transitions.ts) runs this for every year up to its horizon, and the
// runtime runs it for instants past the last stored transition (the TZif "footer"), so
// both sides agree by construction.

import { SECONDS_PER_DAY, daysFromCivil, daysInMonth, weekdayOfDays } from "../core/calendar.ts";
import { DayKind, TimeType, type DaySpec, type FiringRule } from "../formats/zone-model.ts";

// The rule shapes are part of the stored model (formats/zone-model.ts); re-exported for the compiler.
export { DayKind, TimeType, type DaySpec, type FiringRule };

/** Days since 1970-01-01 of the day a DaySpec names in year/month (1..12). */
export function daySpecToDays(year: number, month: number, spec: DaySpec): number {
  switch (spec.kind) {
    case DayKind.Fixed:
      return daysFromCivil(year, month, spec.day);
    case DayKind.LastWeekday: {
      const last = daysFromCivil(year, month, daysInMonth(year, month));
      return last - ((weekdayOfDays(last) - spec.weekday + 7) % 7);
    }
    case DayKind.WeekdayOnOrAfter: {
      const from = daysFromCivil(year, month, spec.day);
      return from + ((spec.weekday - weekdayOfDays(from) + 7) % 7);
    }
    case DayKind.WeekdayOnOrBefore: {
      const from = daysFromCivil(year, month, spec.day);
      return from - ((weekdayOfDays(from) - spec.weekday + 7) % 7);
    }
  }
}

export interface Firing<R extends FiringRule> {
  rule: R;
  /** Unix seconds (UT) at which the rule takes effect. */
  at: number;
  /** The SAVE in force just before this firing. */
  saveBefore: number;
}

/**
 * The firings of `rules` in `year`, earliest first, as zic's outzone() orders them: each
 * step converts every remaining rule's local AT to UT with the SAVE in force at that moment
 * and takes the earliest, so a firing can reorder the rest. `save` is the SAVE in force
 * when the year begins.
 */
export function firingsInYear<R extends FiringRule>(
  rules: readonly R[],
  year: number,
  stdoff: number,
  save: number,
): Firing<R>[] {
  const pending: { rule: R; local: number }[] = [];
  for (const rule of rules) {
    const local = daySpecToDays(year, rule.month, rule.daySpec) * SECONDS_PER_DAY + rule.at;
    pending.push({ rule, local });
  }
  const out: Firing<R>[] = [];
  while (pending.length > 0) {
    let best = -1;
    let bestAt = 0;
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i]!;
      const at = p.local - utcShift(p.rule.atType, stdoff, save);
      if (best < 0 || at < bestAt) {
        best = i;
        bestAt = at;
      }
    }
    const [chosen] = pending.splice(best, 1);
    out.push({ rule: chosen!.rule, at: bestAt, saveBefore: save });
    save = chosen!.rule.save;
  }
  return out;
}

/** What to subtract from a local time of the given type to reach UT. */
export function utcShift(type: TimeType, stdoff: number, save: number): number {
  if (type === TimeType.Universal) return 0;
  if (type === TimeType.Standard) return stdoff;
  return stdoff + save;
}
