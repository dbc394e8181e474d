// `?lang=`'s timezone_name is kept per zone, query and second (server/http/caching/timezone-name-tails.ts):
// the same request in the same second reuses it, and it must still be the name in force at
// each instant, in each format, for each zone and language asked.

import { beforeAll, expect, test } from "bun:test";
import type { Instant } from "../../server/core/clock.ts";
import { testHandler } from "../support/test-server.ts";

let now: Instant = { seconds: 0, micros: 0 };
let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler(() => now);
}, 120_000);

const CHANGE = Date.UTC(2026, 2, 8, 7) / 1000; // New York springs forward
const json = async (path: string) => (await handle(new Request(`http://h${path}`)).json()) as { timezone_name?: string };
const text = async (path: string) => /timezone_name: (.*)\n/.exec(await handle(new Request(`http://h${path}`)).text())?.[1];

test("the name in force at each second, in each format, zone and language", async () => {
  const seen: string[] = [];
  for (const seconds of [CHANGE - 1, CHANGE - 1, CHANGE, CHANGE, CHANGE - 1]) {
    for (const micros of [0, 999_999]) {
      now = { seconds, micros };
      const daylight = seconds >= CHANGE;
      expect((await json("/timezone/America/New_York?lang=en")).timezone_name).toBe(daylight ? "Eastern Daylight Time" : "Eastern Standard Time");
      expect(await text("/timezone/America/New_York.txt?lang=en")).toBe(daylight ? "Eastern Daylight Time" : "Eastern Standard Time");
      expect((await json("/timezone/America/New_York?lang=de")).timezone_name).toBe(daylight ? "Nordamerikanische Ostküsten-Sommerzeit" : "Nordamerikanische Ostküsten-Normalzeit");
      expect((await json("/timezone/America/Chicago?lang=en")).timezone_name).toBe("Central Standard Time"); // springs forward an hour later
      seen.push((await json("/timezone/America/New_York?lang=en")).timezone_name!);
    }
  }
  expect(new Set(seen).size).toBe(2);
  // A query without lang adds nothing; a bad one is refused every time, never kept.
  expect((await json("/timezone/America/New_York?at=2026-01-01T00:00:00Z")).timezone_name).toBeUndefined();
  for (let i = 0; i < 2; i++) expect(handle(new Request("http://h/timezone/America/New_York?lang=x-")).status).toBe(400);
});
