// Clock changes (the transitions endpoint's data) against the reference: the machine's
// zic compiles the same data/tzdb source and zdump lists what the compiled files say.
// Every name 1800-2100 against `zdump -i` (shared with test/tz/differential.test.ts:
// zdump scans in half-day steps and costs a minute of CPU for the whole database), and
// 40 zones 2101-2500 against `zdump -v`, whose second-before/second-of lines give the
// state and wall clock on both sides of each change directly.

import { describe, expect, test } from "bun:test";
import { clockChanges, nextClockChange, wallClockChange, type ClockChange } from "../../server/tz/zone-transitions.ts";
import type { LocalTimeType } from "../../server/formats/zone-model.ts";
import { testZoneTable, utc } from "../support/zone-table.ts";
import { yearStart, zdumpHistories, type ClockState } from "../support/zic-reference.ts";
import { referenceTzdir } from "../support/tzdb-reference.ts";
import { pinnedZoneTable } from "../support/pinned-tzdb.ts";
import { zdumpVerbose } from "../support/zdump-verbose.ts";
import { LONG_RANGE_ZONES } from "../support/long-range-zones.ts";

const show = (s: ClockState | LocalTimeType) => `${s.utoff}s ${s.abbr}${s.isdst ? " dst" : ""}`;
const iso = (t: number) => new Date(t * 1000).toISOString().replace(".000", "");
const line = (at: number, before: ClockState, after: ClockState) => `${iso(at)} ${show(before)} -> ${show(after)}`;

describe("clock changes vs zic/zdump", async () => {
  const table = await testZoneTable();
  const tzdir = referenceTzdir();

  test("every name, 1800-2100: every change, with the state before and after: 0 differences", async () => {
    const names = [...table.names];
    const reference = await zdumpHistories(tzdir, names, 1800, 2101);
    const differences: string[] = [];
    let compared = 0;
    let isdstOrAbbrOnly = 0;
    for (const name of names) {
      const history = reference.get(name);
      if (!history) {
        differences.push(`${name}: zdump printed nothing`);
        continue;
      }
      let before = history.initial;
      const expected = history.transitions.map((t) => {
        const text = line(t.at, before, t.state);
        before = t.state;
        return text;
      });
      const ours = clockChanges(table, table.resolve(name)!.zone, yearStart(1800), yearStart(2101), Infinity);
      expect(ours.nextFrom).toBeNull();
      const actual = ours.changes.map((c) => line(c.at, c.before, c.after));
      for (const c of ours.changes) if (c.before.utoff === c.after.utoff) isdstOrAbbrOnly++;
      compared += expected.length;
      for (let i = 0; i < Math.max(expected.length, actual.length) && differences.length < 20; i++) {
        if (expected[i] !== actual[i]) differences.push(`${name} #${i}: ours ${actual[i] ?? "none"}, zdump ${expected[i] ?? "none"}`);
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(60000);
    // Changes of the abbreviation or isdst alone are in the comparison (e.g. Europe/London 1968-1971 BST as standard time).
    expect(isdstOrAbbrOnly).toBeGreaterThan(100);
  }, 240_000);

  test(`${LONG_RANGE_ZONES.length} zones, 2101-2500, field by field against zdump -v: 0 differences`, async () => {
    const reference = await zdumpVerbose(tzdir, LONG_RANGE_ZONES, 2101, 2501);
    const differences: string[] = [];
    for (const name of LONG_RANGE_ZONES) {
      const expected = reference.get(name)!.map((v) =>
        `${iso(v.at)} ${show(v.before)} -> ${show(v.after)} wall ${v.before.local + 1} -> ${v.after.local}`);
      const ours = clockChanges(table, table.resolve(name)!.zone, yearStart(2101), yearStart(2501), Infinity).changes.map((c) => {
        const wall = wallClockChange(c);
        return `${iso(c.at)} ${show(c.before)} -> ${show(c.after)} wall ${wall.localBefore} -> ${wall.localAt}`;
      });
      expect(ours.length).toBeGreaterThanOrEqual(790); // two a year for 400 years
      for (let i = 0; i < Math.max(expected.length, ours.length) && differences.length < 20; i++) {
        if (expected[i] !== ours[i]) differences.push(`${name} #${i}: ours ${ours[i] ?? "none"}, zdump ${expected[i] ?? "none"}`);
      }
    }
    expect(differences).toEqual([]);
  }, 120_000);
});

describe("clock changes: the window and the cap (tzdb 2026f, the pinned fixture)", async () => {
  const table = await pinnedZoneTable();
  const ny = table.resolve("America/New_York")!.zone;
  const march2026 = utc("2026-03-08T07:00:00Z");

  test("the window is [from, to): a change exactly at `from` is in, one exactly at `to` is out", () => {
    expect(clockChanges(table, ny, march2026, march2026 + 1).changes.map((c) => c.at)).toEqual([march2026]);
    expect(clockChanges(table, ny, march2026 - 3600, march2026).changes).toEqual([]);
  });

  test("the cap: `nextFrom` is the first change left out, and asking from there continues seamlessly", () => {
    const from = yearStart(1900);
    const to = yearStart(2400);
    const all = clockChanges(table, ny, from, to, Infinity).changes;
    expect(all.length).toBeGreaterThan(900);
    const pages: ClockChange[] = [];
    let cursor: number | null = from;
    let requests = 0;
    while (cursor !== null) {
      const page = clockChanges(table, ny, cursor, to, 100);
      expect(page.changes.length).toBeLessThanOrEqual(100);
      pages.push(...page.changes);
      if (page.nextFrom !== null) expect(page.nextFrom).toBeGreaterThan(page.changes.at(-1)!.at);
      cursor = page.nextFrom;
      requests++;
    }
    expect(requests).toBe(Math.ceil(all.length / 100));
    expect(pages).toEqual(all);
  });

  test("the edges of years 0001 and 9999: LMT before any record, footer rules at the end", () => {
    const first = clockChanges(table, ny, yearStart(1), yearStart(2));
    expect(first.changes).toEqual([]);
    const last = clockChanges(table, ny, yearStart(9999), yearStart(10000)).changes;
    expect(last.map((c) => `${iso(c.at)} ${c.after.abbr}`)).toEqual(["9999-03-14T07:00:00Z EDT", "9999-11-07T06:00:00Z EST"]);
  });

  test("a stored transition that changes only how the offset splits into standard time and SAVE is no clock change", () => {
    // Counted over the whole table: such transitions exist, and none of them is listed.
    let saveOnly = 0;
    for (const name of table.names) {
      const zone = table.resolve(name)!.zone;
      let period = table.findPeriod(zone, yearStart(1800));
      while (period.end < yearStart(2101)) {
        const next = table.findPeriod(zone, period.end);
        const same = next.type.utoff === period.type.utoff && next.type.abbr === period.type.abbr && next.type.isdst === period.type.isdst;
        if (same) {
          saveOnly++;
          expect(clockChanges(table, zone, period.end, period.end + 1).changes).toEqual([]);
        }
        period = next;
      }
    }
    expect(saveOnly).toBeGreaterThan(0);
  });

  test("the next change after an instant", () => {
    const next = nextClockChange(table, ny, utc("2026-11-21T00:00:00Z"))!;
    expect(iso(next.at)).toBe("2027-03-14T07:00:00Z");
    expect(wallClockChange(next)).toEqual({ localBefore: utc("2027-03-14T02:00:00Z"), localAt: utc("2027-03-14T03:00:00Z"), effect: "gap" });
    expect(nextClockChange(table, table.resolve("Asia/Kathmandu")!.zone, utc("2026-11-21T00:00:00Z"))).toBeNull();
  });
});
