// Where a POSIX TZ string, run as device libcs run it (posix-tz.ts), first stops showing
// what our transition table says: offset, abbreviation and isdst. Both sides are constant
// between their own change instants, so comparing at every change of either side (and
// at each UTC New Year, where the libcs pick the next year's rules) is exact.

import { daysFromCivil, SECONDS_PER_DAY, yearOfUnixSeconds } from "../core/calendar.ts";
import type { ZoneTable } from "../tz/zone-table.ts";
import { clockChanges } from "../tz/zone-transitions.ts";
import { readingAt, ruleInstants, sameReading, type PosixTz } from "./posix-tz.ts";

/** 10000-01-01T00:00:00Z: the table answers no later instant. */
export const END_OF_DATA = daysFromCivil(10000, 1, 1) * SECONDS_PER_DAY;
/** Checked a chunk at a time, so a string that fails early costs little. */
const CHUNK_YEARS = 8;

const yearStart = (year: number) => daysFromCivil(year, 1, 1) * SECONDS_PER_DAY;

/** The instants in [from, to) where the string's reading may change. */
function stringBreakpoints(tz: PosixTz, from: number, to: number, out: number[]): void {
  if (tz.dst === null) return;
  for (let y = yearOfUnixSeconds(from); yearStart(y) < to; y++) {
    const lo = yearStart(y);
    const hi = yearStart(y + 1);
    const { start, end } = ruleInstants(tz, y);
    for (const p of [lo, start, end]) if (p >= lo && p < hi && p >= from && p < to) out.push(p);
  }
}

/**
 * Where the chunk from `a` ends. A string with DST changes every year, so it is checked
 * CHUNK_YEARS at a time. A fixed string changes nothing on its own: only the table's next
 * change can make it wrong, so its chunk runs to just past that change. Walking year by
 * year instead cost an `?at=` in year 1 some 1,800 years per zone before its first change
 * (a /device list for year 1: 450-1,700 ms; issue 30).
 */
function chunkEnd(table: ZoneTable, zone: number, tz: PosixTz, a: number, to: number): number {
  if (tz.dst !== null) return Math.min(to, yearStart(yearOfUnixSeconds(a) + CHUNK_YEARS));
  const next = clockChanges(table, zone, a + 1, to, 1).changes[0];
  return next === undefined ? to : Math.min(to, next.at + 1);
}

/**
 * The first instant in [from, to) at which `tz` shows something other than `zone` does,
 * or null when it never does there. Also a mismatch: an instant where glibc, newlib and
 * musl would disagree with each other (start and end rules coinciding; musl takes the
 * previous year's rules at exactly 00:00:00 UTC on 1 January).
 */
export function firstMismatch(table: ZoneTable, zone: number, tz: PosixTz, from: number, to: number): number | null {
  let truth = table.findPeriod(zone, from).type;
  for (let a = from; a < to;) {
    const b = chunkEnd(table, zone, tz, a, to);
    const points: number[] = [a];
    stringBreakpoints(tz, a, b, points);
    const changes = [];
    for (let c = a; ;) {
      const part = clockChanges(table, zone, c, b);
      changes.push(...part.changes);
      if (part.nextFrom === null) break;
      c = part.nextFrom;
    }
    for (const change of changes) points.push(change.at);
    points.sort((x, y) => x - y);
    let next = 0;
    for (let i = 0; i < points.length; i++) {
      const p = points[i]!;
      if (i > 0 && p === points[i - 1]) continue;
      while (next < changes.length && changes[next]!.at <= p) truth = changes[next++]!.after;
      const shown = readingAt(tz, p);
      if (shown === null || !sameReading(shown, truth)) return p;
      const year = yearOfUnixSeconds(p);
      if (tz.dst !== null && p === yearStart(year)) {
        const musl = readingAt(tz, p, year - 1);
        if (musl === null || !sameReading(musl, truth)) return p;
      }
    }
    a = b;
  }
  return null;
}
