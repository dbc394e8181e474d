// `?lang=`'s timezone_name is kept per URL and second (server/http/params/lang-param.ts):
// the same request in the same second reuses it, and it must still be the name in force at
// each instant, in each format, for each zone and language asked, and for each caller of
// `/ip`, one URL whose zone is the caller's.

import { beforeAll, expect, test } from "bun:test";
import type { Instant } from "../../server/core/clock.ts";
import { testConfig, testDataDir, testHandler } from "../support/test-server.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { loadData } from "../../server/process/load-data.ts";

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

test("/ip?lang= is one URL for every caller: each gets the name of its own zone, in the same second", async () => {
  now = { seconds: CHANGE + 3600, micros: 0 };
  const handler = createFetchHandler(createAppState(await loadData(await testDataDir()), () => now, await testConfig()));
  const from = (address: string) => ({ requestIP: () => ({ address, family: "IPv4", port: 1 }), timeout() {} }) as never;
  const nameFor = async (address: string) => ((await (handler(new Request("http://h/ip?lang=en"), from(address)) as Response).json()) as { timezone: string; timezone_name: string });
  // Google's resolver (Los Angeles in the IP data) and one in Japan, alternating.
  const answers = [];
  for (const address of ["8.8.8.8", "133.242.0.1", "8.8.8.8", "133.242.0.1"]) answers.push(await nameFor(address));
  expect(answers.map((a) => a.timezone)).toEqual(["America/Los_Angeles", "Asia/Tokyo", "America/Los_Angeles", "Asia/Tokyo"]);
  expect(answers.map((a) => a.timezone_name)).toEqual(["Pacific Standard Time", "Japan Standard Time", "Pacific Standard Time", "Japan Standard Time"]);
}, 120_000);
