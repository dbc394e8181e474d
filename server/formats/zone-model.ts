// The compiled form of one zone, as the compiler produces it and the format module
// (zones-format.ts) stores it: what the local clock says (a "local time type", TZif's
// ttinfo) from each transition on, and the rules that keep applying after the last stored
// transition, down to how a rule names its day and reads its time.

/** How a rule's ON field names the day. */
export const DayKind = {
  /** `5`: that day of the month. */
  Fixed: 0,
  /** `lastSun`: the last such weekday of the month. */
  LastWeekday: 1,
  /** `Sun>=8`: the first such weekday on or after the day (may spill into the next month). */
  WeekdayOnOrAfter: 2,
  /** `Sun<=25`: the last such weekday on or before the day (may spill into the previous month). */
  WeekdayOnOrBefore: 3,
} as const;
export type DayKind = (typeof DayKind)[keyof typeof DayKind];

/** The clock an AT or UNTIL time is read on: suffix w (default), s, or u/g/z. */
export const TimeType = { Wall: 0, Standard: 1, Universal: 2 } as const;
export type TimeType = (typeof TimeType)[keyof typeof TimeType];

export interface DaySpec {
  kind: DayKind;
  /** Day of month; for LastWeekday unused (0). */
  day: number;
  /** Sunday = 0; for Fixed unused (0). */
  weekday: number;
}

/** The part of a Rule line that decides when it fires and what SAVE it brings. */
export interface FiringRule {
  month: number;
  daySpec: DaySpec;
  /** AT in seconds after local midnight of the day; may exceed 86400 (`25:00`) or be negative. */
  at: number;
  atType: TimeType;
  /** SAVE in seconds; negative for Europe/Dublin's winter time. */
  save: number;
}

export interface LocalTimeType {
  /** UT offset in seconds (standard offset + save). */
  utoff: number;
  /** The DST amount in seconds: negative for Europe/Dublin in winter, 7200 for Antarctica/Troll. */
  save: number;
  /** isdst as tzdb defines it (Dublin's winter GMT is isdst, its summer IST is not). */
  isdst: boolean;
  abbr: string;
}

export interface Transition {
  /** Unix seconds (UT) from which `type` holds. */
  at: number;
  type: LocalTimeType;
}

/** A Rule line that is still in force at the end of the data (TO = max), ready to fire. */
export interface FooterRule extends FiringRule {
  type: LocalTimeType;
}

/** What TZif calls the footer: the zone's last standard offset and its ever-repeating rules. */
export interface Footer {
  stdoff: number;
  rules: FooterRule[];
}

export interface CompiledZone {
  /** The type before the first transition (usually LMT). */
  initial: LocalTimeType;
  transitions: Transition[];
  /** Rules that apply after the last transition; null when the last type holds forever. */
  footer: Footer | null;
}

export function sameType(a: LocalTimeType, b: LocalTimeType): boolean {
  return a.utoff === b.utoff && a.save === b.save && a.isdst === b.isdst && a.abbr === b.abbr;
}
