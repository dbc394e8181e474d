// A zone's state at an instant as the dialects (timeapi.io, TimeZoneDB, Google) describe it:
// offsets, DST, abbreviation, the period's bounds and what follows it. Built from the same
// zone table as the time object, so every dialect answers what the spec answer says.

import type { DstRun, ZoneTable } from "../tz/zone-table.ts";

const YEAR = 366 * 86400;

export interface ZoneState {
  /** Seconds east of UTC in force. */
  utoff: number;
  /** utoff without the DST amount (the time object's raw_offset). */
  stdoff: number;
  /** The DST amount in force (the time object's dst_offset): 0 outside DST, negative for Dublin's winter. */
  dstOffset: number;
  isdst: boolean;
  abbr: string;
  /** The transition that began the period; -Infinity before the first one. */
  periodStart: number;
  /** The next transition; Infinity when none follows. */
  periodEnd: number;
  /** The abbreviation after periodEnd; null when nothing follows. */
  nextAbbr: string | null;
}

export function zoneStateAt(zones: ZoneTable, zone: number, seconds: number): ZoneState {
  const period = zones.periodAt(zone, seconds);
  const { type } = period;
  const dstOffset = type.isdst ? type.save : 0;
  const next = period.end === Infinity ? null : zones.findPeriod(zone, period.end);
  return {
    utoff: type.utoff,
    stdoff: type.utoff - dstOffset,
    dstOffset,
    isdst: type.isdst,
    abbr: type.abbr,
    periodStart: period.start,
    periodEnd: period.end,
    nextAbbr: next === null ? null : next.type.abbr,
  };
}

/** The DST run in force at `seconds`, else the next one to begin within a year; null when none. */
export function currentOrNextDstRun(zones: ZoneTable, zone: number, seconds: number): DstRun | null {
  const here = zones.dstRunAt(zone, seconds);
  if (here !== null) return here;
  let t = zones.findPeriod(zone, seconds).end;
  while (t !== Infinity && t <= seconds + YEAR) {
    const period = zones.findPeriod(zone, t);
    if (period.type.isdst) return zones.dstRunAt(zone, t);
    t = period.end;
  }
  return null;
}

/** Whether the zone observes DST around `seconds`: in DST now, or entering it within a year. */
export function observesDst(zones: ZoneTable, zone: number, seconds: number): boolean {
  return currentOrNextDstRun(zones, zone, seconds) !== null;
}
