// zonetime against the reference: the machine's zic compiles the same data/tzdb source,
// zdump lists every transition, and every one must match ours (instant, UT offset, isdst,
// abbreviation). No zone is skipped; a missing zic or zdump fails the test.

import { describe, expect, test } from "bun:test";
import { referenceTzdir, zicNames } from "../support/tzdb-reference.ts";
import { testZoneTable } from "../support/zone-table.ts";
import { compareHistories, tableHistory, yearStart, zdumpHistories } from "../support/zic-reference.ts";

/** Zones that still change clocks, both hemispheres, every odd rule shape, for 2101-2500. */
const LONG_RANGE_ZONES = [
  "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Anchorage",
  "America/Halifax", "America/St_Johns", "America/Havana", "America/Toronto", "America/Santiago",
  "America/Boise", "America/Nuuk", "America/Miquelon", "Pacific/Easter", "Pacific/Auckland",
  "Pacific/Chatham", "Pacific/Norfolk", "Australia/Sydney", "Australia/Adelaide", "Australia/Hobart",
  "Australia/Lord_Howe", "Antarctica/Troll", "Antarctica/Macquarie", "Europe/Dublin", "Europe/London",
  "Europe/Paris", "Europe/Berlin", "Europe/Helsinki", "Europe/Chisinau", "Europe/Lisbon",
  "Atlantic/Azores", "Asia/Gaza", "Asia/Hebron", "Asia/Jerusalem", "Asia/Beirut", "Africa/Cairo",
  "US/Eastern", "EST5EDT", "CET", "Canada/Newfoundland",
];

describe("zic/zdump differential", async () => {
  const table = await testZoneTable();
  const tzdir = referenceTzdir();

  test("every name, every transition, 1800-2100: 0 differences", async () => {
    const names = [...table.names];
    // The same names zic writes files for: every Zone and Link, Factory aside.
    expect([...names].sort()).toEqual(zicNames());
    const reference = await zdumpHistories(tzdir, names, 1800, 2101);
    const differences: string[] = [];
    let transitions = 0;
    for (const name of names) {
      const ref = reference.get(name);
      if (!ref) {
        differences.push(`${name}: zdump printed nothing`);
        continue;
      }
      const ours = tableHistory(table, name, yearStart(1800), yearStart(2101));
      transitions += ours.transitions.length;
      differences.push(...compareHistories(name, ours, ref));
    }
    expect(differences).toEqual([]);
    expect(transitions).toBeGreaterThan(60000); // the comparison really walked the history
  }, 240_000);

  test(`${LONG_RANGE_ZONES.length} DST zones, 2101-2500 (footer rules): 0 differences`, async () => {
    const reference = await zdumpHistories(tzdir, LONG_RANGE_ZONES, 2101, 2501);
    const differences: string[] = [];
    for (const name of LONG_RANGE_ZONES) {
      const ours = tableHistory(table, name, yearStart(2101), yearStart(2501));
      expect(ours.transitions.length).toBeGreaterThanOrEqual(790); // two a year, 400 years
      differences.push(...compareHistories(name, ours, reference.get(name)!));
    }
    expect(differences).toEqual([]);
  }, 240_000);
});
