// One parser per kind of parameter (server/http/params/, issue 31): every route that takes
// a point, a zone name, a country or an instant accepts and refuses exactly the same
// inputs, each in its own words (a 400, TimeZoneDB's FAILED, Google's INVALID_REQUEST).
// A table of inputs per kind, asked of every route that takes that kind.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Instant } from "../../server/core/clock.ts";
import { testHandler } from "../support/test-server.ts";

const now: Instant = { seconds: Date.UTC(2026, 10, 21, 10) / 1000, micros: 0 };
let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler(() => now);
}, 120_000);

async function accepted(path: string): Promise<boolean> {
  const r = handle(new Request(`http://parsers.example${path}`));
  const body = await r.text();
  if (r.status >= 500) throw new Error(`${path}: ${r.status}`);
  // The dialects answer a refusal with 200 and their own status word (Google's ZERO_RESULTS is
  // a point it read, at sea).
  return r.status === 200 && !/"status"\s*:\s*"(FAILED|INVALID_REQUEST)"/.test(body);
}

/** For each input, which routes accepted it: every route must agree. */
async function agreement(inputs: readonly string[], routes: Record<string, (input: string) => string>) {
  const rows: Record<string, Record<string, boolean>> = {};
  for (const input of inputs) {
    rows[input] = {};
    for (const [route, path] of Object.entries(routes)) rows[input]![route] = await accepted(path(input));
  }
  return rows;
}

function expectAgreement(rows: Record<string, Record<string, boolean>>, expected: Record<string, boolean>) {
  for (const [input, byRoute] of Object.entries(rows)) {
    const want = expected[input]!;
    expect({ input, byRoute }).toEqual({ input, byRoute: Object.fromEntries(Object.keys(byRoute).map((r) => [r, want])) });
  }
}

const e = encodeURIComponent;

describe("a latitude", () => {
  const expected: Record<string, boolean> = {
    "51.5074": true, "-33.87": true, "+12": true, ".5": true, "0": true, "-0": true, "90": true, "-90": true, "51.": true,
    "0051.5": true, "51.50740000000000000000001": true,
    "91": false, "-90.5": false, "1e1": false, "0x10": false, "NaN": false, "Infinity": false, "": false, "5 1": false,
    "51,5": false, "١٢": false, ["1".repeat(40)]: false,
  };
  test("is accepted or refused alike by /coordinates, timeapi.io, TimeZoneDB and Google", async () => {
    expectAgreement(await agreement(Object.keys(expected), {
      coordinates: (lat) => `/coordinates/${e(lat)},-0.1278`,
      timeapi: (lat) => `/api/Time/current/coordinate?latitude=${e(lat)}&longitude=-0.1278`,
      timezonedb: (lat) => `/v2.1/get-time-zone?key=K&format=json&by=position&lat=${e(lat)}&lng=-0.1278&time=1763719200`,
      google: (lat) => `/maps/api/timezone/json?location=${e(lat)},-0.1278&timestamp=1763719200`,
    }), expected);
  });
});

describe("a zone name", () => {
  const expected: Record<string, boolean> = {
    "Europe/London": true, "US/Eastern": true, "UTC": true, "Etc/GMT+5": true, "Etc/GMT 5": true, "Etc/GMT-14": true,
    "Nowhere/Land": false, "Europe/London ": false, ["x".repeat(65)]: false,
  };
  test("is accepted or refused alike by the time object, /convert, /clock, timeapi.io and TimeZoneDB", async () => {
    expectAgreement(await agreement(Object.keys(expected), {
      timezone: (name) => `/timezone/${name.split("/").map(e).join("/")}?at=2026-11-21T10:00:00Z`,
      convert: (name) => `/convert?time=2026-11-21T10:00:00Z&from=UTC&to=${e(name)}`,
      clock: (name) => `/clock?zones=${e(name)}`,
      timeapi: (name) => `/api/Time/current/zone?timeZone=${e(name)}`,
      timezonedb: (name) => `/v2.1/get-time-zone?key=K&format=json&by=zone&zone=${e(name)}&time=1763719200`,
    }), expected);
  });
});

describe("a country", () => {
    // Whether the data knows a well-formed code is each route's own question (TimeZoneDB lists no zone for XX, and an empty
  // country is no filter, as the vendor does).
  const expected: Record<string, boolean> = { "US": true, "us": true, "uS": true, "GB": true, "ß": false, "USA": false, "U": false, "1A": false };
  test("is accepted or refused alike by /timezone, /places and TimeZoneDB's list", async () => {
    expectAgreement(await agreement(Object.keys(expected), {
      timezone: (cc) => `/timezone?country=${e(cc)}`,
      places: (cc) => `/places?q=springfield&country=${e(cc)}`,
      timezonedb: (cc) => `/v2.1/list-time-zone?key=K&format=json&country=${e(cc)}`,
    }), expected);
  });
});

describe("an instant", () => {
  const expected: Record<string, boolean> = {
    "2026-11-21T10:00:00Z": true, "2026-11-21T10:00:00.123456Z": true, "2026-11-21T11:00:00+01:00": true, "2026-11-21 10:00:00Z": true,
    "2016-12-31T23:59:60Z": true, "1763719200": true, "1763719200.5": true, "-1": true,
    "2026-11-21": false, "2026-11-21T10:00:00": false, "2026-02-30T10:00:00Z": false, "2016-12-31T23:59:61Z": false, "1e9": false, "": false, "now": false,
  };
  test("is accepted or refused alike as at, from and time", async () => {
    expectAgreement(await agreement(Object.keys(expected), {
      at: (t) => `/timezone/Europe/London?at=${e(t)}`,
      info: (t) => `/timezone/Europe/London/info?at=${e(t)}`,
      device: (t) => `/timezone/Europe/London/device?at=${e(t)}`,
      from: (t) => `/timezone/Europe/London/transitions?from=${e(t)}`,
      clock: (t) => `/clock?zones=Europe/London&at=${e(t)}`,
    }), expected);
  });
});
