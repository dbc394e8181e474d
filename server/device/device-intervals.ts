// Device strings for any instant at the price of a binary search (issue 30: a /device list
// for an arbitrary `?at=` walked every zone's rules, 2-30 ms a list).
//
// A zone's answer (posix_tz, valid_until) is constant over long stretches of time: its LMT
// centuries, each DST season of a year, everything after its footer holds. DeviceStrings.steady()
// gives the answer at an instant and the stretch after it over which it holds; this keeps
// those stretches per zone, sorted, so that any later instant inside one is answered from
// it. Stretches are found as instants are asked (in a zone's LMT centuries, from year 1, so
// one question covers them all), and kept for the life of the loaded table, within a bound. A stretch whose answer is worked out for each
// instant (one year's rules put just before it: a new string every hour) is kept as such,
// so only those few zones compute, as they always did.

import { SECONDS_PER_DAY, daysFromCivil } from "../core/calendar.ts";
import type { ZoneTable } from "../tz/zone-table.ts";
import { deviceStringsOf, type DeviceStrings, type DeviceTz, type SteadyDeviceTz } from "./device-tz.ts";

/** 0001-01-01T00:00:00Z: no instant asked is earlier. */
const FIRST_INSTANT = daysFromCivil(1, 1, 1) * SECONDS_PER_DAY;
/** Stretches kept per table (about 100 bytes each); past it they are dropped and found again. 2026f has about 130,000 in all. */
const MAX_STRETCHES = 200_000;

interface Stretch {
  from: number;
  /** Exclusive. */
  until: number;
  /** The answer throughout, or null: worked out for each instant. */
  tz: DeviceTz | null;
}

/** Bytes a kept stretch holds by estimate (its record, its slot in the zone's array); its answer is shared with the strings' own. */
const STRETCH_BYTES = 100;

export class DeviceIntervals {
  /** In /metrics with the memo stores (zonetime_memo_*{memo="device_stretches"}). */
  readonly name = "device_stretches";
  /** Per zone, disjoint stretches sorted by `from`. */
  private readonly stretches = new Map<number, Stretch[]>();
  private count = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(private readonly table: ZoneTable, private readonly strings: DeviceStrings) {}

  /** The device string for `zone` at unix second `at` (an integer): what DeviceStrings.at() answers, from a kept stretch when one holds it. */
  at(zone: number, at: number): DeviceTz {
    let list = this.stretches.get(zone);
    if (list === undefined) this.stretches.set(zone, (list = []));
    const i = lastFromAtOrBefore(list, at);
    if (i >= 0 && at < list[i]!.until) {
      this.hits++;
      return list[i]!.tz ?? this.strings.at(zone, at);
    }
    this.misses++;
    // In a zone's first period (its LMT centuries), from year 1: one answer covers them all. Elsewhere from
    // `at` alone: a second search from the period's start made a cold list (all misses) 40% dearer.
    const periodStart = this.table.findPeriod(zone, at).start;
    if (periodStart === -Infinity && FIRST_INSTANT < at) {
      const stretch = this.keep(list, FIRST_INSTANT, this.strings.steady(zone, FIRST_INSTANT));
      if (stretch.until > at) return stretch.tz ?? this.strings.at(zone, at);
    }
    const steady = this.strings.steady(zone, at);
    this.keep(list, at, steady);
    return steady.tz;
  }

  /** Keeps the stretch `steady` found from `from` (clipped to the kept stretches around it), and returns it unclipped. */
  private keep(list: Stretch[], from: number, steady: SteadyDeviceTz): Stretch {
    const stretch: Stretch = { from, until: steady.stretchUntil, tz: steady.perInstant ? null : steady.tz };
    if (this.count >= MAX_STRETCHES) this.clear();
    const i = lastFromAtOrBefore(list, from);
    const clipped = { ...stretch, from: Math.max(from, i >= 0 ? list[i]!.until : -Infinity), until: Math.min(stretch.until, i + 1 < list.length ? list[i + 1]!.from : Infinity) };
    if (clipped.from < clipped.until) {
      list.splice(i + 1, 0, clipped);
      this.count++;
    }
    return stretch;
  }

  get size(): number {
    return this.count;
  }

  stats(): { hits: number; misses: number; evictions: number; entries: number; bytes: number } {
    return { hits: this.hits, misses: this.misses, evictions: this.evictions, entries: this.count, bytes: this.count * STRETCH_BYTES };
  }

  private clear(): void {
    this.evictions += this.count;
    for (const list of this.stretches.values()) list.length = 0;
    this.count = 0;
  }
}

/** The index of the last stretch starting at or before `t`, or -1. */
function lastFromAtOrBefore(list: Stretch[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.from <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

const byTable = new WeakMap<ZoneTable, DeviceIntervals>();

/** The kept stretches of a loaded table (they live and die with it). */
export function deviceIntervalsOf(table: ZoneTable): DeviceIntervals {
  const compiled = table.compiled; // shared by every tzdb release's table, as deviceStringsOf
  let intervals = byTable.get(compiled);
  if (intervals === undefined) byTable.set(compiled, (intervals = new DeviceIntervals(compiled, deviceStringsOf(compiled))));
  return intervals;
}
