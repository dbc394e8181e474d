// `?at=` at the ends of the range: every instant from 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999Z is answered, in either form (RFC 3339 or unix seconds), as
// long as the zone's local time is inside years 0001-9999 too (so that every date-time in
// an answer is RFC 3339); outside that, 400. A DST period that ends after 9999 (or began
// before 0001) has a null dst_until (dst_from).

import { beforeAll, describe, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 120_000);

const FIRST = "0001-01-01T00:00:00Z";
const LAST = "9999-12-31T23:59:59.999999Z";
const OUT_OF_RANGE = "at out of range: years 0001-9999 only";
const localOutside = (zone: string) => `at out of range: the local time in ${zone} at that instant is outside years 0001-9999`;

async function ask(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = handle(new Request(`http://localhost${path}`));
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe("the first and last instants", () => {
  test.each([
    [`at=${FIRST}`], ["at=0001-01-01T09:00:00%2B09:00"], ["at=-62135596800"], ["at=-62135596800.000000"],
  ])("UTC at the first instant (%s)", async (query) => {
    const { status, body } = await ask(`/timezone/UTC?${query}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      utc_datetime: "0001-01-01T00:00:00.000000Z", datetime: "0001-01-01T00:00:00.000000+00:00", unixtime: -62135596800,
      day_of_week: 1, day_of_year: 1, week_number: 1, // proleptic Gregorian: 0001-01-01 was a Monday, ISO week 1
    });
  });
  test.each([[`at=${LAST}`], ["at=9999-12-31T23:59:59Z"], ["at=253402300799.999999"], ["at=253402300799"]])("UTC at the last instant (%s)", async (query) => {
    const { status, body } = await ask(`/timezone/UTC?${query}`);
    expect(status).toBe(200);
    expect(body.utc_datetime).toMatch(/^9999-12-31T23:59:59\.(999999|000000)Z$/);
    expect(body).toMatchObject({ unixtime: 253402300799, day_of_week: 5, day_of_year: 365, week_number: 52 });
  });
  test("the WorldTimeAPI profile answers the same range", async () => {
    expect((await ask(`/api/timezone/Etc/UTC?at=${FIRST}`)).body.utc_datetime).toBe("0001-01-01T00:00:00.000000+00:00");
    expect((await ask(`/api/timezone/Etc/UTC?at=${LAST}`)).body.utc_datetime).toBe("9999-12-31T23:59:59.999999+00:00");
  });
  test.each([
    ["at=0000-12-31T23:59:59Z"], ["at=0001-01-01T00:00:00%2B00:01"], ["at=-62135596801"], ["at=-62135596800.000001"],
    ["at=253402300800"], ["at=9999-12-31T23:59:59-00:01"],
  ])("one step outside (%s): 400", async (query) => {
    expect(await ask(`/timezone/UTC?${query}`)).toEqual({ status: 400, body: { error: OUT_OF_RANGE } });
  });
});

describe("local time at the ends, zone by zone", () => {
  test.each([
    // East of Greenwich at the first instant, west of it at the last: local time is inside.
    ["Asia/Tokyo", FIRST, "0001-01-01T09:18:59.000000+09:18:59"],
    ["Asia/Kathmandu", FIRST, "0001-01-01T05:41:16.000000+05:41:16"],
    ["America/New_York", LAST, "9999-12-31T18:59:59.999999-05:00"],
    ["Pacific/Honolulu", LAST, "9999-12-31T13:59:59.999999-10:00"],
  ])("%s at %s: %s", async (zone, at, datetime) => {
    const { status, body } = await ask(`/timezone/${zone}?at=${at}`);
    expect(status).toBe(200);
    expect(body.datetime).toBe(datetime);
  });
  test.each([
    // Local mean time west of Greenwich puts 0001-01-01T00:00:00Z in year 0000; east of it, the last instant in 10000.
    ["Europe/London", FIRST], ["America/New_York", FIRST], ["Asia/Tokyo", LAST], ["Australia/Sydney", LAST], ["Etc/GMT-14", LAST],
  ])("%s at %s: 400, the local time is outside 0001-9999", async (zone, at) => {
    expect(await ask(`/timezone/${zone}?at=${at}`)).toEqual({ status: 400, body: { error: localOutside(zone) } });
  });
  test("every date-time answered near the ends has a four-digit year", async () => {
    const zones = ["UTC", "Europe/London", "Europe/Dublin", "America/Sao_Paulo", "Australia/Sydney", "Australia/Lord_Howe",
      "Pacific/Apia", "Antarctica/Troll", "Asia/Tokyo", "America/New_York", "Africa/Casablanca"];
    const instants = [FIRST, "0001-01-02T00:00:00Z", "9999-06-30T00:00:00Z", "9999-12-30T00:00:00Z", "9999-12-31T10:00:00Z", LAST];
    let answered = 0;
    for (const zone of zones) {
      for (const at of instants) {
        const { status, body } = await ask(`/timezone/${zone}?at=${at}`);
        if (status === 400) {
          expect(body).toEqual({ error: localOutside(zone) });
          continue;
        }
        answered++;
        for (const key of ["datetime", "utc_datetime", "dst_from", "dst_until"]) {
          if (body[key] !== null) expect({ zone, at, key, value: body[key] }).toEqual({ zone, at, key, value: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
        }
      }
    }
    expect(answered).toBeGreaterThan(zones.length * 3);
  });
});

describe("DST periods cut by the end of year 9999", () => {
  test("Australia/Sydney's last summer ends in 10000: dst_until is null, dst_from is given", async () => {
    const { status, body } = await ask("/timezone/Australia/Sydney?at=9999-12-30T00:00:00Z");
    expect(status).toBe(200);
    expect(body).toMatchObject({ dst: true, abbreviation: "AEDT", dst_from: "9999-10-02T16:00:00Z", dst_until: null });
  });
  test("Europe/London in 9999 keeps both ends", async () => {
    const london = await ask("/timezone/Europe/London?at=9999-07-01T00:00:00Z");
    expect(london.body).toMatchObject({ dst: true, dst_from: "9999-03-28T01:00:00Z", dst_until: "9999-10-31T01:00:00Z" });
  });
  test("the .txt form prints the null as an empty value", async () => {
    const text = await handle(new Request("http://localhost/timezone/Australia/Sydney.txt?at=9999-12-30T00:00:00Z")).text();
    expect(text).toContain("dst_from: 9999-10-02T16:00:00Z\ndst_until: \n");
  });
});

// Issue 30's low items: a leap second read as Temporal reads it, windows that never echo an
// instant outside 0001-9999, and errors that name the parameter the client sent.
describe("leap seconds, window ends, and which parameter an error names", () => {
  test.each([
    ["/timezone/UTC?at=2016-12-31T23:59:60Z", 1483228799, 0],
    ["/timezone/UTC?at=2016-12-31T23:59:60.5Z", 1483228799, 500000],
    ["/timezone/Asia/Tokyo?at=2017-01-01T08:59:60%2B09:00", 1483228799, 0],
  ])("%s is accepted, clamped to :59 as Temporal does", async (path, unixtime, micros) => {
    const { status, body } = await ask(path);
    expect(status).toBe(200);
    expect(body.unixtime).toBe(unixtime);
    expect(String(body.utc_datetime)).toEndWith(`:59.${String(micros).padStart(6, "0")}Z`);
  });
  test("/convert reads a local :60 the same way", async () => {
    const { status, body } = await ask("/convert?time=2016-12-31T23:59:60&from=UTC&to=UTC");
    expect(status).toBe(200);
    expect((body.from as { unixtime: number }).unixtime).toBe(1483228799);
  });
  test(":61 is still refused", async () => {
    expect((await ask("/timezone/UTC?at=2016-12-31T23:59:61Z")).status).toBe(400);
  });
  test("a from in the last second of 9999 with no to names from, not the to the client never sent", async () => {
    const { status, body } = await ask("/timezone/UTC/transitions?from=253402300799.1");
    expect(status).toBe(400);
    expect(String(body.error)).toStartWith("from out of range");
  });
  test("a from whose next whole second is in 10000 is refused, never echoed as 10000-01-01", async () => {
    const { status, body } = await ask("/timezone/UTC/transitions?from=9999-12-31T23:59:59.5Z");
    expect(status).toBe(400);
    expect(JSON.stringify(body)).not.toContain("10000");
    expect(String(body.error)).toStartWith("from out of range");
  });
  test("a to in the last second of 9999 echoes 9999-12-31T23:59:59Z at most", async () => {
    const { status, body } = await ask("/timezone/Europe/London/transitions?from=9999-01-01T00:00:00Z&to=9999-12-31T23:59:59.5Z");
    expect(status).toBe(200);
    expect(body.to).toBe("9999-12-31T23:59:59Z");
    expect((body.transitions as unknown[]).length).toBe(2);
  });
  test("a to before now, with no from, says now", async () => {
    const { status, body } = await ask("/timezone/UTC/transitions?to=2000-01-01T00:00:00Z");
    expect(status).toBe(400);
    expect(body.error).toBe("invalid to: must be after now");
  });
});
