// The device strings kept per stretch of time (server/device/device-intervals.ts) against
// the same strings worked out from scratch for each instant (DeviceStrings.at, the
// computation /device used alone before issue 30): the same posix_tz and valid_until at
// every instant asked, whatever stretches earlier questions left behind. Instants are asked
// in a shuffled order, so that many are answered from a stretch found by another one,
// earlier or later in time.

import { beforeAll, describe, expect, test } from "bun:test";
import { DeviceIntervals } from "../../server/device/device-intervals.ts";
import { DeviceStrings } from "../../server/device/device-tz.ts";
import { daysFromCivil, SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import type { ZoneTable } from "../../server/tz/zone-table.ts";
import { clockChanges } from "../../server/tz/zone-transitions.ts";
import { testAnsweringHandler } from "../support/test-server.ts";
import { testZoneTable } from "../support/zone-table.ts";

const YEAR = 365 * SECONDS_PER_DAY;
const yearStart = (year: number) => daysFromCivil(year, 1, 1) * SECONDS_PER_DAY;

let table: ZoneTable;
let zones: number[];
const nameOf = new Map<number, string>();

beforeAll(async () => {
  table = await testZoneTable();
  for (const name of table.names) {
    const zone = table.resolve(name)!.zone;
    if (!nameOf.has(zone)) nameOf.set(zone, name);
  }
  zones = [...nameOf.keys()];
}, 120_000);

/** A seeded generator, so that a failure is the same on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

function shuffled<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Asks `intervals` every [zone, instant] in order; the answers that differ from the reference's (at most 10). */
function mismatches(intervals: DeviceIntervals, queries: [number, number][]): string[] {
  const reference = new DeviceStrings(table);
  const found: string[] = [];
  for (const [zone, at] of queries) {
    const kept = intervals.at(zone, at);
    const fresh = reference.at(zone, at);
    if (kept.posixTz !== fresh.posixTz || kept.validUntil !== fresh.validUntil) {
      found.push(`${nameOf.get(zone)} at ${at}: kept ${JSON.stringify(kept)}, fresh ${JSON.stringify(fresh)}`);
      if (found.length === 10) break;
    }
  }
  return found;
}

describe("device strings kept per stretch answer as the computation for each instant", () => {
  test("every year 0001-9999: an instant in each, for a rotating sample of zones (every zone about 500 times)", () => {
    const next = random(30);
    const queries: [number, number][] = [];
    for (let year = 1; year <= 9999; year++) {
      const from = yearStart(year);
      const span = yearStart(year + 1) - from;
      for (let k = 0; k < 17; k++) queries.push([zones[(year * 17 + k) % zones.length]!, from + Math.floor(next() * span)]);
    }
    const intervals = new DeviceIntervals(table, new DeviceStrings(table));
    expect(mismatches(intervals, shuffled(queries, next))).toEqual([]);
    // Most answers came from a stretch another question found: the point of keeping them.
    expect(intervals.hits).toBeGreaterThan(queries.length / 2);
  }, 120_000);

  test("both sides of every clock change, of where it enters the year ahead and of each New Year (musl reads its first second with last year's rules), 0001-2100, for a sample of zones", () => {
    const next = random(9);
    const named = ["America/Havana", "America/Nuuk", "America/Scoresbysund", "Africa/Algiers", "America/Indiana/Knox", "Africa/Casablanca",
      "Europe/Dublin", "Australia/Lord_Howe", "Antarctica/Troll", "Africa/Accra", "Africa/Cairo", "Europe/Lisbon", "America/Argentina/Tucuman", "Asia/Gaza"];
    const sample = new Set([...named.map((n) => table.resolve(n)!.zone), ...zones.filter((_, i) => i % 10 === 0)]);
    const queries: [number, number][] = [];
    for (const zone of sample) {
      for (let from = yearStart(1); ;) {
        const part = clockChanges(table, zone, from, yearStart(2101));
        for (const { at } of part.changes) {
          for (const edge of [at, at - YEAR]) for (const t of [edge - 1, edge, edge + 1]) queries.push([zone, t]);
          queries.push([zone, at + Math.floor(next() * 100 * SECONDS_PER_DAY)]);
        }
        if (part.nextFrom === null) break;
        from = part.nextFrom;
      }
      for (let year = 1800; year <= 2100; year++) for (const t of [-1, 0, 1]) queries.push([zone, yearStart(year) + t]);
    }
    expect(queries.length).toBeGreaterThan(20_000);
    const intervals = new DeviceIntervals(table, new DeviceStrings(table));
    expect(mismatches(intervals, shuffled(queries, next))).toEqual([]);
  }, 120_000);
});

describe("/device through the handler", () => {
  test("a list for another instant in the same stretches is answered from them, and /metrics shows them as a memo store", async () => {
    const handle = await testAnsweringHandler();
    const metric = (text: string, name: string) => Number(new RegExp(`^${name}\\{memo="device_stretches"\\} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
    const before = await (await handle(new Request("http://h/metrics"))).text();
    expect((await handle(new Request("http://h/device?at=0010-06-01T00:00:00Z"))).status).toBe(200);
    const first = await (await handle(new Request("http://h/metrics"))).text();
    expect((await handle(new Request("http://h/device?at=0020-06-01T00:00:00Z"))).status).toBe(200);
    const second = await (await handle(new Request("http://h/metrics"))).text();
    // Year 10 left a stretch for every zone (its LMT centuries, or its footer for good); year 20 found them all.
    expect(metric(first, "zonetime_memo_entries")).toBeGreaterThan(metric(before, "zonetime_memo_entries"));
    expect(metric(second, "zonetime_memo_misses_total")).toBe(metric(first, "zonetime_memo_misses_total"));
    expect(metric(second, "zonetime_memo_hits_total")).toBeGreaterThanOrEqual(metric(first, "zonetime_memo_hits_total") + table.names.length / 2);
    expect(metric(second, "zonetime_memo_bytes")).toBeGreaterThan(0);
  }, 120_000);
});
