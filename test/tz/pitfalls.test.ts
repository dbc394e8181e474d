// The zones and instants that break naive timezone code, one row each, with why it is
// here. Expected values are tzdb 2026f's, as zic+zdump on the same source report them, so
// the table is compiled from the pinned 2026f fixture, not from whatever data/tzdb holds.

import { describe, expect, test } from "bun:test";
import { PINNED_RELEASE, pinnedZoneTable } from "../support/pinned-tzdb.ts";
import { utc } from "../support/zone-table.ts";

interface Row {
  zone: string;
  at: string;
  utoff: number;
  save: number;
  isdst: boolean;
  abbr: string;
  why: string;
}

const H = 3600;

const rows: Row[] = [
  { zone: "Europe/Dublin", at: "2026-01-15T12:00:00Z", utoff: 0, save: -H, isdst: true, abbr: "GMT",
    why: "negative SAVE: Irish winter time is the DST period (isdst) with save -1h" },
  { zone: "Europe/Dublin", at: "2026-07-15T12:00:00Z", utoff: H, save: 0, isdst: false, abbr: "IST",
    why: "and Irish Standard Time in summer is standard, not DST" },
  { zone: "Africa/Casablanca", at: "2026-03-01T12:00:00Z", utoff: 0, save: -H, isdst: true, abbr: "+00",
    why: "Morocco's Ramadan pause was a negative-save DST period (2026-02-15..03-22)" },
  { zone: "Africa/Casablanca", at: "2026-11-21T00:00:00Z", utoff: 0, save: 0, isdst: false, abbr: "+00",
    why: "2026f: permanent +00 since 2026-09-20; ICU and 2026b still say +01" },
  { zone: "America/Nuuk", at: "2026-07-01T12:00:00Z", utoff: -H, save: H, isdst: true, abbr: "-01",
    why: "2023: Greenland moved standard time to -02 and keeps EU-timed DST at -01" },
  { zone: "America/Nuuk", at: "2026-11-21T00:00:00Z", utoff: -2 * H, save: 0, isdst: false, abbr: "-02",
    why: "its winter offset after the 2023 change" },
  { zone: "Antarctica/Troll", at: "2026-07-01T00:00:00Z", utoff: 2 * H, save: 2 * H, isdst: true, abbr: "+02",
    why: "a two-hour DST (save 2:00), from +00 to +02" },
  { zone: "Pacific/Apia", at: "2011-12-30T09:59:59Z", utoff: -10 * H, save: H, isdst: true, abbr: "-10",
    why: "the last second before Samoa skipped 2011-12-30 entirely" },
  { zone: "Pacific/Apia", at: "2011-12-30T10:00:00Z", utoff: 14 * H, save: H, isdst: true, abbr: "+14",
    why: "local time jumps from 2011-12-29 23:59:59 to 2011-12-31 00:00:00" },
  { zone: "Australia/Lord_Howe", at: "2026-11-21T00:00:00Z", utoff: 11 * H, save: 1800, isdst: true, abbr: "+11",
    why: "a 30-minute DST" },
  { zone: "Australia/Lord_Howe", at: "2026-07-01T00:00:00Z", utoff: 10.5 * H, save: 0, isdst: false, abbr: "+1030",
    why: "a half-hour standard offset with a numeric abbreviation" },
  { zone: "Asia/Kathmandu", at: "2026-11-21T00:00:00Z", utoff: 5.75 * H, save: 0, isdst: false, abbr: "+0545",
    why: "a 45-minute offset" },
  { zone: "America/Sao_Paulo", at: "2018-11-04T02:59:59Z", utoff: -3 * H, save: 0, isdst: false, abbr: "-03",
    why: "the second before a DST start at local midnight (00:00 does not exist that day)" },
  { zone: "America/Sao_Paulo", at: "2018-11-04T03:00:00Z", utoff: -2 * H, save: H, isdst: true, abbr: "-02",
    why: "the DST start at midnight itself" },
  { zone: "Asia/Gaza", at: "2100-03-26T23:59:59Z", utoff: 2 * H, save: 0, isdst: false, abbr: "EET",
    why: "past the stored transitions: the footer rule, whose POSIX form needs hours past 24" },
  { zone: "Asia/Gaza", at: "2100-03-27T00:00:00Z", utoff: 3 * H, save: H, isdst: true, abbr: "EEST",
    why: "the footer's DST start in 2100" },
  { zone: "Asia/Jerusalem", at: "2100-03-26T00:00:00Z", utoff: 3 * H, save: H, isdst: true, abbr: "IDT",
    why: "Friday before the last Sunday of March (POSIX M3.4.4/26): DST since 2100-03-26T00:00Z" },
  { zone: "Asia/Jerusalem", at: "2100-03-25T23:59:59Z", utoff: 2 * H, save: 0, isdst: false, abbr: "IST",
    why: "and standard time one second before" },
  { zone: "Antarctica/Casey", at: "2012-02-21T16:59:59Z", utoff: 11 * H, save: 0, isdst: false, abbr: "+11",
    why: "2012: an UNTIL with a u suffix (21 Feb 17:00 UT)" },
  { zone: "Antarctica/Casey", at: "2012-02-21T17:00:00Z", utoff: 8 * H, save: 0, isdst: false, abbr: "+08",
    why: "the change happens at 17:00 UT, not 17:00 local" },
  { zone: "America/New_York", at: "2100-07-01T00:00:00Z", utoff: -4 * H, save: H, isdst: true, abbr: "EDT",
    why: "2100 is not a leap year and lies past the stored transitions: footer rules" },
  { zone: "America/New_York", at: "2100-11-07T06:00:00Z", utoff: -5 * H, save: 0, isdst: false, abbr: "EST",
    why: "the footer's DST end in 2100 (first Sunday of November, 2:00 local)" },
  { zone: "Etc/GMT-14", at: "2026-11-21T00:00:00Z", utoff: 14 * H, save: 0, isdst: false, abbr: "+14",
    why: "POSIX-style inverted sign: Etc/GMT-14 is fourteen hours east, +14" },
  { zone: "Africa/Tunis", at: "1943-04-16T23:59:59Z", utoff: 2 * H, save: H, isdst: true, abbr: "CEST",
    why: "1943: transitions only days apart (03-29, 04-17, 04-25)" },
  { zone: "Africa/Tunis", at: "1943-04-20T00:00:00Z", utoff: H, save: 0, isdst: false, abbr: "CET",
    why: "the eight-day return to CET between them" },
  { zone: "America/Havana", at: "2026-11-21T00:00:00Z", utoff: -4 * H, save: H, isdst: true, abbr: "CDT",
    why: "2026f: Cuba stays on DST until 2027-11-07; ICU and Debian's zoneinfo say -05" },
  { zone: "America/Winnipeg", at: "2026-11-21T00:00:00Z", utoff: -5 * H, save: 0, isdst: false, abbr: "EST",
    why: "2026f: Manitoba stayed on -05 permanently; ICU and Debian's zoneinfo say -06" },
];

describe("pitfall zones", async () => {
  const table = await pinnedZoneTable();
  for (const row of rows) {
    test(`${row.zone} at ${row.at}: ${row.why}`, () => {
      const zone = table.resolve(row.zone);
      expect(zone?.name).toBe(row.zone);
      const { type } = table.periodAt(zone!.zone, utc(row.at));
      expect({ utoff: type.utoff, save: type.save, isdst: type.isdst, abbr: type.abbr })
        .toEqual({ utoff: row.utoff, save: row.save, isdst: row.isdst, abbr: row.abbr });
    });
  }
});

describe("DST runs", async () => {
  const table = await pinnedZoneTable();
  test("Europe/London in summer 2025 runs from the March to the October transition", () => {
    const london = table.resolve("Europe/London")!.zone;
    expect(table.dstRunAt(london, utc("2025-10-01T10:42:43Z"))).toEqual({
      from: utc("2025-03-30T01:00:00Z"),
      until: utc("2025-10-26T01:00:00Z"),
    });
  });
  test("no run outside DST", () => {
    const london = table.resolve("Europe/London")!.zone;
    expect(table.dstRunAt(london, utc("2025-12-01T00:00:00Z"))).toBeNull();
  });
  test("Havana's DST run in 2026f lasts until 2027-11-07", () => {
    const havana = table.resolve("America/Havana")!.zone;
    expect(table.dstRunAt(havana, utc("2026-11-21T00:00:00Z"))).toEqual({
      from: utc("2026-03-08T05:00:00Z"),
      until: utc("2027-11-07T05:00:00Z"),
    });
  });
  test("the cached period answers the same as a fresh search", () => {
    const ny = table.resolve("America/New_York")!.zone;
    const t = utc("2026-11-21T00:00:00Z");
    const first = table.periodAt(ny, t);
    expect(table.periodAt(ny, t + 1)).toBe(first);
    expect(table.periodAt(ny, first.end).start).toBe(first.end);
    expect(table.periodAt(ny, first.start - 1).end).toBe(first.start);
  });
});

describe("names", async () => {
  const table = await pinnedZoneTable();
  test("597 names in 2026f: every Zone and Link but Factory", () => {
    expect(table.tzdbVersion).toBe(PINNED_RELEASE);
    expect(table.names.length).toBe(597);
    expect(table.resolve("Factory")).toBeUndefined();
  });
  test("case-insensitive, answering in canonical casing; links keep their own name", () => {
    expect(table.resolve("america/new_york")?.name).toBe("America/New_York");
    expect(table.resolve("US/EASTERN")).toMatchObject({ name: "US/Eastern", isLink: true });
    expect(table.resolve("US/Eastern")!.zone).toBe(table.resolve("America/New_York")!.zone);
    expect(table.resolve("asia/calcutta")!.zone).toBe(table.resolve("Asia/Kolkata")!.zone);
    expect(table.resolve("America/Argentina/Salta")?.name).toBe("America/Argentina/Salta");
    expect(table.resolve("Nowhere/City")).toBeUndefined();
  });
});
