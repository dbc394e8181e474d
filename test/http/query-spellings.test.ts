// Every text-taking route reads its query as a form does (issue 31): the same query spelled
// with `+` for a space, with `%20`, or as a browser's URLSearchParams writes it is the same
// question and gets the same bytes. A `+` meant literally (`Etc/GMT+5`, an offset) is the
// one a client most often leaves unescaped: it arrives as a space and must still be read.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Instant } from "../../server/core/clock.ts";
import { testHandler } from "../support/test-server.ts";

const now: Instant = { seconds: Date.UTC(2026, 10, 21, 10) / 1000, micros: 250_000 };
let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler(() => now);
}, 120_000);

/** [path, parameters]: each route's text parameters as a client means them. */
const CASES: [string, Record<string, string>][] = [
  ["/timezone", { q: "pacific time" }],
  ["/timezone", { q: "Mitteleuropäische Zeit" }],
  ["/places", { q: "new york" }],
  ["/places", { q: "são paulo", country: "br" }],
  ["/clock", { zones: "Etc/GMT+5,Europe/London", at: "2026-11-21T10:00:00+01:00" }],
  ["/timezone/Europe/Berlin", { lang: "de", at: "2026-11-21T10:00:00+01:00" }],
  ["/timezone/America/New_York/transitions", { from: "2026-01-01T00:00:00+00:00", to: "2027-01-01 00:00:00Z" }],
  ["/convert", { time: "2026-03-08 02:30:00", from: "America/New_York", to: "Etc/GMT+5" }],
  ["/api/Time/current/zone", { timeZone: "Etc/GMT+5" }],
  ["/v2.1/get-time-zone", { key: "K", format: "json", by: "city", city: "New York", country: "US", time: "1763719200" }],
  ["/v2.1/get-time-zone", { key: "K", format: "json", by: "zone", zone: "Etc/GMT+5", time: "1763719200" }],
  ["/maps/api/timezone/json", { location: "38.908133, -77.047119", timestamp: "1458000000", language: "pt-BR" }],
];

/** `+` for each space, every other character as a person types it (only & # % escaped). */
const withPlus = (params: Record<string, string>) =>
  Object.entries(params).map(([k, v]) => `${k}=${v.replace(/%/g, "%25").replace(/&/g, "%26").replace(/#/g, "%23").replace(/ /g, "+")}`).join("&");
/** encodeURIComponent: `%20` for a space, `%2B` for a plus. */
const withPercent = (params: Record<string, string>) => Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
const bySearchParams = (params: Record<string, string>) => new URLSearchParams(params).toString();

async function answer(path: string, query: string) {
  const r = handle(new Request(`http://spell.example${path}?${query}`));
  return { status: r.status, type: r.headers.get("content-type"), body: await r.text() };
}

describe("three spellings of one query, one answer", () => {
  test.each(CASES)("%s %o", async (path, params) => {
    const [plus, percent, searchParams] = await Promise.all([withPlus(params), withPercent(params), bySearchParams(params)].map((q) => answer(path, q))) as [Awaited<ReturnType<typeof answer>>, Awaited<ReturnType<typeof answer>>, Awaited<ReturnType<typeof answer>>];
    expect(plus.status).toBe(200);
    expect(percent).toEqual(plus);
    expect(searchParams).toEqual(plus);
  });

  test("/timezone?q=pacific+time finds what q=pacific%20time finds", async () => {
    const { body } = await answer("/timezone", "q=pacific+time");
    expect(JSON.parse(body)).toContain("America/Los_Angeles");
  });

  test("a broken escape is a 400 naming the parameter, on every route", async () => {
    for (const [path, name] of [["/timezone", "q"], ["/places", "q"], ["/clock", "zones"], ["/timezone/UTC", "at"], ["/timezone/UTC/transitions", "from"]] as const) {
      const r = await answer(path, `${name}=%E0%A4%A`);
      expect({ path, status: r.status }).toEqual({ path, status: 400 });
      expect(r.body).toContain(name);
    }
  });
});
