// Devices simulated end to end: for each of the 597 names, 10 devices starting at random
// instants from 2026-11-01 to 2027-12-31 set TZ from /timezone/{name}/device?at=start
// (a real server), ask again at each refresh_after, and read their clock under glibc,
// musl and ESP-IDF's newlib (real C code, test/support/libc-harness.ts) at 300 random
// instants over the next 10 years and on both sides of every transition. Every reading
// must be the table's: offset, abbreviation and isdst. All queries of a libc go through
// one harness process.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parsePosixTz, readingAt } from "../../server/device/posix-tz.ts";
import { clockChanges } from "../../server/tz/zone-transitions.ts";
import type { ZoneTable } from "../../server/tz/zone-table.ts";
import { buildHarnesses, readAll, type LibcReading } from "../support/libc-harness.ts";
import { startTestServer } from "../support/test-server.ts";
import { testZoneTable, utc } from "../support/zone-table.ts";

const STARTS_PER_NAME = 10;
const RANDOM_INSTANTS = 300;
const YEARS = 10;
const FIRST_START = utc("2026-11-01T00:00:00Z");
const LAST_START = utc("2027-12-31T00:00:00Z");
const SPAN = Math.round(YEARS * 365.2425 * 86400);

/** A small seeded generator (mulberry32): the same devices every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Device {
  name: string;
  start: number;
  /** What the device set, from when: ascending. */
  strings: { from: number; tz: string }[];
}

interface Query {
  tz: string;
  t: number;
  expected: LibcReading;
  device: Device;
}

let server: { url: string; stop: () => void };
let table: ZoneTable;
const devices: Device[] = [];
const queries: Query[] = [];

async function ask(name: string, at: number): Promise<{ posix_tz: string; refresh_after: string; valid_until: string | null }> {
  const response = await fetch(`${server.url}/timezone/${name}/device?at=${at}`);
  if (response.status !== 200) throw new Error(`${name} at ${at}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<{ posix_tz: string; refresh_after: string; valid_until: string | null }>;
}

/**
 * Asks at the start and again at each refresh_after. Once an answer holds for good
 * (valid_until null) a real device still asks monthly, for new tzdb releases; here it asks
 * once more to see the same string come back, and that string is then checked for the
 * rest of the 10 years, so the re-asks counted are the ones the rules force.
 */
async function runDevice(device: Device): Promise<void> {
  let at = device.start;
  const end = device.start + SPAN;
  for (;;) {
    const answer = await ask(device.name, at);
    device.strings.push({ from: at, tz: answer.posix_tz });
    const next = Date.parse(answer.refresh_after) / 1000;
    if (next <= at) throw new Error(`${device.name}: refresh_after ${answer.refresh_after} is not after ${at}`);
    if (answer.valid_until !== null && next > Date.parse(answer.valid_until) / 1000) throw new Error(`${device.name}: refresh_after after valid_until`);
    if (next >= end) return;
    if (answer.valid_until === null) {
      const again = await ask(device.name, next);
      if (again.posix_tz !== answer.posix_tz || again.valid_until !== null) throw new Error(`${device.name}: a string right for good changed a month later`);
      return;
    }
    at = next;
  }
}

function stringAt(device: Device, t: number): string {
  let tz = device.strings[0]!.tz;
  for (const s of device.strings) if (s.from <= t) tz = s.tz;
  return tz;
}

beforeAll(async () => {
  server = await startTestServer();
  table = await testZoneTable();
  const next = random(20261123);
  for (const name of table.names) {
    for (let i = 0; i < STARTS_PER_NAME; i++) {
      devices.push({ name, start: FIRST_START + Math.floor(next() * (LAST_START - FIRST_START)), strings: [] });
    }
  }
  // A few devices at a time, as real ones would come.
  for (let i = 0; i < devices.length; i += 64) await Promise.all(devices.slice(i, i + 64).map(runDevice));
  for (const device of devices) {
    const zone = table.resolve(device.name)!.zone;
    const instants = new Set<number>();
    for (let i = 0; i < RANDOM_INSTANTS; i++) instants.add(device.start + Math.floor(next() * SPAN));
    for (const change of clockChanges(table, zone, device.start, device.start + SPAN, 100000).changes) {
      if (change.at - 1 >= device.start) instants.add(change.at - 1);
      instants.add(change.at);
    }
    for (const t of instants) {
      const type = table.findPeriod(zone, t).type;
      queries.push({ tz: stringAt(device, t), t, expected: { utoff: type.utoff, abbr: type.abbr, isdst: type.isdst }, device });
    }
  }
  // Grouped by string, so each libc parses each string once.
  queries.sort((a, b) => (a.tz < b.tz ? -1 : a.tz > b.tz ? 1 : a.t - b.t));
}, 600_000);

afterAll(() => server?.stop());

function mismatches(readings: readonly LibcReading[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i]!;
    const r = readings[i]!;
    if (r.utoff !== q.expected.utoff || r.abbr !== q.expected.abbr || r.isdst !== q.expected.isdst) {
      out.push(`${q.device.name} (device from ${new Date(q.device.start * 1000).toISOString()}) at ${new Date(q.t * 1000).toISOString()}: ` +
        `TZ=${q.tz} shows ${r.utoff} ${r.abbr} isdst=${r.isdst}, the table ${q.expected.utoff} ${q.expected.abbr} isdst=${q.expected.isdst}`);
    }
  }
  return out;
}

describe("simulated devices, 597 names x 10 starts x 10 years", () => {
  test("every device re-asks a bounded number of times, and the counts are reported", () => {
    expect(devices.length).toBe(table.names.length * STARTS_PER_NAME);
    const reasks = new Map<string, number>();
    for (const d of devices) reasks.set(d.name, Math.max(reasks.get(d.name) ?? 0, d.strings.length - 1));
    const histogram = new Map<number, number>();
    for (const n of reasks.values()) histogram.set(n, (histogram.get(n) ?? 0) + 1);
    const heavy = [...reasks].filter(([, n]) => n > 3).map(([name, n]) => `${name} ${n}`);
    console.log(`device strings: ${queries.length} readings per libc; re-asks over 10 years (most of any start) -> names: ` +
      [...histogram].sort((a, b) => a[0] - b[0]).map(([n, c]) => `${n}: ${c}`).join(", ") +
      `; over 3: ${heavy.join(", ") || "none"}`);
    // The rules force a new string at most about once a year (one year's Jn rules).
    for (const [name, n] of reasks) expect({ name, n: n <= 12 }).toEqual({ name, n: true });
  });

  test("our POSIX TZ evaluator agrees with the table at every reading", () => {
    const parsed = new Map<string, ReturnType<typeof parsePosixTz>>();
    const own = queries.map((q) => {
      let tz = parsed.get(q.tz);
      if (tz === undefined) parsed.set(q.tz, (tz = parsePosixTz(q.tz)));
      return readingAt(tz, q.t)!;
    });
    expect(mismatches(own).slice(0, 10)).toEqual([]);
  }, 60_000);

  for (const libc of ["glibc", "musl", "newlib"]) {
    test(`${libc}: 0 readings differ from the table`, async () => {
      const harnesses = buildHarnesses();
      const executable = harnesses.run.get(libc);
      if (executable === undefined) {
        console.warn(harnesses.skipped.join("\n"));
        return;
      }
      const wrong = mismatches(await readAll(executable, queries));
      console.log(`${libc}: ${wrong.length} of ${queries.length} readings differ`);
      expect(wrong.slice(0, 10)).toEqual([]);
    }, 300_000);
  }
});
