// A local date-time in a zone -> the instant it names, with the JavaScript Temporal
// proposal's disambiguation for the wall-clock times a change skips (a gap) or repeats
// (an overlap):
//   compatible  gap: the later instant (as if the clock had not yet jumped), overlap: the earlier
//   earlier     the earlier instant: gap -> local minus the offset after the change
//   later       the later instant:   gap -> local minus the offset before the change
//   reject      no answer for a skipped or repeated time
// This is also Python's PEP 495: `compatible` is fold=0, and fold=1 is the other choice.

import type { ZoneTable } from "./zone-table.ts";

export type Disambiguation = "compatible" | "earlier" | "later" | "reject";
export const DISAMBIGUATIONS: readonly Disambiguation[] = ["compatible", "earlier", "later", "reject"];

/** Where the local time falls: once, never (skipped by a gap) or twice (repeated by an overlap). */
export type LocalTimeKind = "unique" | "skipped" | "repeated";

export interface LocalTimeResolution {
  kind: LocalTimeKind;
  /** Unix seconds; null only when `reject` meets a skipped or repeated time. */
  instant: number | null;
}

/** UT offsets stay within a day (the widest, LMT, about 15 hours), so two days each way hold every candidate. */
const SEARCH_SECONDS = 2 * 86400;

/**
 * The instant at which the clock of `zone` reads `local` (seconds since 1970-01-01T00:00
 * on that clock, may have a fraction), resolved by `mode`; instant null only for reject.
 */
export function instantOfLocal(table: ZoneTable, zone: number, local: number, mode: Disambiguation): LocalTimeResolution {
  const whole = Math.floor(local);
  const fraction = local - whole;
  let earliest = Infinity;
  let latest = -Infinity;
  let count = 0;
  // The gap, if `whole` falls in one: the offsets before and after that change.
  let gapBefore = 0;
  let gapAfter = 0;
  let inGap = false;
  let period = table.findPeriod(zone, whole - SEARCH_SECONDS);
  for (;;) {
    const t = whole - period.type.utoff;
    if (t >= period.start && t < period.end) {
      count++;
      if (t < earliest) earliest = t;
      if (t > latest) latest = t;
    }
    if (period.end > whole + SEARCH_SECONDS) break;
    const next = table.findPeriod(zone, period.end);
    const change = period.end;
    if (!inGap && next.type.utoff > period.type.utoff &&
      change + period.type.utoff <= whole && whole < change + next.type.utoff) {
      inGap = true;
      gapBefore = period.type.utoff;
      gapAfter = next.type.utoff;
    }
    period = next;
  }
  if (count === 1) return { kind: "unique", instant: earliest + fraction };
  if (count > 1) {
    if (mode === "reject") return { kind: "repeated", instant: null };
    return { kind: "repeated", instant: (mode === "later" ? latest : earliest) + fraction };
  }
  if (!inGap) throw new Error(`local time ${whole} in zone ${zone} is neither held nor skipped`);
  if (mode === "reject") return { kind: "skipped", instant: null };
  return { kind: "skipped", instant: whole - (mode === "earlier" ? gapAfter : gapBefore) + fraction };
}
