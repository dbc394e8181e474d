// The time object field by field, through the fetch handler with ?at= for fixed instants.

import { beforeAll, describe, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";
import { expectedClock } from "../support/tzdb-reference.ts";
import { utc } from "../support/zone-table.ts";

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 120_000);

async function at(name: string, instant: string, prefix = ""): Promise<Record<string, unknown>> {
  const response = handle(new Request(`http://zonetime.test${prefix}/timezone/${name}?at=${encodeURIComponent(instant)}`));
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe("calendar fields", () => {
  test("Sunday is 0", async () => {
    expect((await at("UTC", "2026-11-22T12:00:00Z")).day_of_week).toBe(0);
    expect((await at("UTC", "2026-11-21T12:00:00Z")).day_of_week).toBe(6);
  });
  test.each([
    ["2026-12-31T12:00:00Z", 53, "2026 begins on a Thursday, so it has 53 ISO weeks"],
    ["2027-01-01T12:00:00Z", 53, "a Friday: still week 53 of 2026"],
    ["2027-01-04T12:00:00Z", 1, "the first Monday of 2027 starts week 1"],
    ["2021-01-03T12:00:00Z", 53, "a Sunday in week 53 of 2020"],
  ])("ISO week of %s is %d (%s)", async (instant, week) => {
    expect((await at("UTC", instant)).week_number).toBe(week);
  });
  test("day_of_year counts the leap day: 2028-12-31 is day 366", async () => {
    expect((await at("UTC", "2028-12-31T12:00:00Z")).day_of_year).toBe(366);
  });
  test("calendar fields follow the local date, not UTC", async () => {
    const o = await at("Pacific/Kiritimati", "2026-12-31T12:00:00Z"); // +14: already 2027-01-01
    expect(o).toMatchObject({ datetime: "2027-01-01T02:00:00.000000+14:00", day_of_year: 1, day_of_week: 5, week_number: 53 });
  });
});

describe("zones whose rules trip naive code", () => {
  test("Europe/Dublin in January: isdst with a negative save", async () => {
    expect(await at("Europe/Dublin", "2026-01-15T12:00:00Z")).toMatchObject({
      utc_offset: "+00:00", abbreviation: "GMT", dst: true, dst_offset: -3600, raw_offset: 3600,
      dst_from: "2025-10-26T01:00:00Z", dst_until: "2026-03-29T01:00:00Z",
    });
  });
  test("Europe/Dublin in July: Irish Standard Time, not DST", async () => {
    expect(await at("Europe/Dublin", "2026-07-15T12:00:00Z")).toMatchObject({
      utc_offset: "+01:00", abbreviation: "IST", dst: false, dst_offset: 0, raw_offset: 3600, dst_from: null, dst_until: null,
    });
  });
  test("Antarctica/Troll: a two-hour DST", async () => {
    expect(await at("Antarctica/Troll", "2026-07-01T00:00:00Z")).toMatchObject({
      utc_offset: "+02:00", abbreviation: "+02", dst: true, dst_offset: 7200, raw_offset: 0,
    });
  });
  test("Australia/Lord_Howe: a 30-minute DST on a half-hour offset", async () => {
    expect(await at("Australia/Lord_Howe", "2026-11-21T00:00:00Z")).toMatchObject({
      utc_offset: "+11:00", abbreviation: "+11", dst: true, dst_offset: 1800, raw_offset: 37800,
      dst_from: "2026-10-03T15:30:00Z", dst_until: "2027-04-03T15:00:00Z",
    });
  });
  test("Asia/Kathmandu: +05:45", async () => {
    expect(await at("Asia/Kathmandu", "2026-11-21T00:00:00Z")).toMatchObject({
      utc_offset: "+05:45", abbreviation: "+0545", raw_offset: 20700, datetime: "2026-11-21T05:45:00.000000+05:45",
    });
  });
  test("Etc/GMT-14 is +14:00", async () => {
    expect((await at("Etc/GMT-14", "2026-11-21T00:00:00Z")).utc_offset).toBe("+14:00");
  });
  test("an LMT offset with seconds, through at", async () => {
    expect(await at("Europe/London", "1800-01-01T00:00:00Z")).toMatchObject({
      utc_offset: "-00:01:15", abbreviation: "LMT", raw_offset: -75, datetime: "1799-12-31T23:58:45.000000-00:01:15",
    });
  });
  test("dst_from and dst_until: null outside DST, the DST period inside", async () => {
    expect(await at("Europe/London", "2026-01-15T12:00:00Z")).toMatchObject({ dst: false, dst_from: null, dst_until: null });
    expect(await at("Europe/London", "2026-07-15T12:00:00Z")).toMatchObject({
      dst: true, dst_from: "2026-03-29T01:00:00Z", dst_until: "2026-10-25T01:00:00Z",
    });
    expect(await at("Europe/London", "2026-07-15T12:00:00Z", "/api")).toMatchObject({
      dst_from: "2026-03-29T01:00:00+00:00", dst_until: "2026-10-25T01:00:00+00:00",
    });
  });
  test("America/Havana and America/Winnipeg on 2026-11-21 follow data/tzdb as zdump reads it, not ICU", async () => {
    // 2026f says -04 CDT and -05 EST where ICU says -05 and -06; the release in data/tzdb decides.
    const instant = "2026-11-21T00:00:00Z";
    for (const zone of ["America/Havana", "America/Winnipeg"]) {
      expect(await at(zone, instant)).toMatchObject(await expectedClock(zone, utc(instant)));
    }
  });
});

describe("instants and their formats", () => {
  test("unix seconds with a fraction, and RFC 3339 with an offset, name the same instant", async () => {
    const a = await at("UTC", "1759315363.821684");
    const b = await at("UTC", "2025-10-01T11:42:43.821684+01:00");
    expect(a.utc_datetime).toBe("2025-10-01T10:42:43.821684Z");
    expect(b.utc_datetime).toBe(a.utc_datetime);
    expect(a.unixtime).toBe(1759315363);
  });
  test("a negative unix time with a fraction floors correctly", async () => {
    expect(await at("UTC", "-1.25")).toMatchObject({ unixtime: -2, utc_datetime: "1969-12-31T23:59:58.750000Z" });
  });
  test("without at, six real fractional digits: over 100 calls, not all whole milliseconds", async () => {
    const fractions: string[] = [];
    for (let i = 0; i < 100; i++) {
      const o = (await handle(new Request("http://zonetime.test/timezone/UTC")).json()) as { utc_datetime: string; datetime: string };
      expect(o.utc_datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(o.datetime.slice(0, 26)).toBe(o.utc_datetime.slice(0, 26));
      fractions.push(o.utc_datetime.slice(20, 26));
    }
    expect(fractions.some((f) => !f.endsWith("000"))).toBe(true);
  });
  test("the time is the system clock's", async () => {
    const o = (await handle(new Request("http://zonetime.test/timezone/UTC")).json()) as { unixtime: number };
    expect(Math.abs(o.unixtime - Date.now() / 1000)).toBeLessThan(5);
  });
  test(".txt: one key: value line per field, null as an empty value", async () => {
    const body = await handle(new Request("http://zonetime.test/timezone/Europe/London.txt?at=2026-01-15T12:00:00Z")).text();
    expect(body.split("\n")).toEqual([
      "utc_offset: +00:00", "timezone: Europe/London", "day_of_week: 4", "day_of_year: 15",
      "datetime: 2026-01-15T12:00:00.000000+00:00", "utc_datetime: 2026-01-15T12:00:00.000000Z", "unixtime: 1768478400",
      "raw_offset: 0", "week_number: 3", "dst: false", "abbreviation: GMT", "dst_offset: 0", "dst_from: ", "dst_until: ",
      "client_ip: ", "",
    ]);
  });
});
