// GET /coordinates/{lat},{lng} against a real server on a free port: the time object of the
// zone at the point (the same bytes /timezone/{that zone} gives for the same instant), .txt,
// ?at=, the /api profile, CORS, HEAD, the other zones of a disputed place, and bad input:
// a 400 in the one error shape naming the wrong part, never a 5xx.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(() => server?.stop());

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
type TimeObject = Record<string, string | number | boolean | null>;
const json = async (path: string) => (await (await get(path)).json()) as TimeObject;
const AT = "?at=2026-11-21T00:00:00Z";

describe("the time at a point", () => {
  test("London: the same time object as /timezone/Europe/London, for the same instant", async () => {
    const [place, zone] = await Promise.all([get(`/coordinates/51.5074,-0.1278${AT}`), get(`/timezone/Europe/London${AT}`)]);
    expect(place.status).toBe(200);
    expect(place.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(place.headers.get("cache-control")).toBe("no-store");
    expect(place.headers.get("access-control-allow-origin")).toBe("*");
    expect(place.headers.get("x-other-timezones")).toBeNull();
    expect(await place.text()).toBe(await zone.text());
  });

  test("the zone's own name, so ?at= follows that place's history: Kathmandu in 1985 was +05:30", async () => {
    const body = await json("/coordinates/27.7172,85.3240?at=1985-06-01T00:00:00Z");
    expect(body.timezone).toBe("Asia/Kathmandu");
    expect(body.utc_offset).toBe("+05:30");
  });

  test(".txt, the /api profile, a trailing slash, an encoded comma, HEAD", async () => {
    const txt = await get(`/coordinates/-33.8688,151.2093.txt${AT}`);
    expect(txt.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await txt.text()).toContain("timezone: Australia/Sydney\n");
    const wta = await json(`/api/coordinates/40.7128,-74.0060${AT}`);
    expect(wta.timezone).toBe("America/New_York");
    expect(wta.utc_datetime).toBe("2026-11-21T00:00:00.000000+00:00");
    expect((await json(`/coordinates/40.7128%2C-74.0060/${AT}`)).timezone).toBe("America/New_York");
    const head = await get(`/coordinates/51.5074,-0.1278`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  test("at sea, the nautical zone of the longitude", async () => {
    const body = await json("/coordinates/0,-30");
    expect(body.timezone).toBe("Etc/GMT+2");
    expect(body.utc_offset).toBe("-02:00");
  });

  test("a place the data gives two clocks: the first answers, X-Other-Timezones (exposed to scripts) names the other", async () => {
    const r = await get(`/coordinates/38.7503,85.9829${AT}`);
    expect(((await r.json()) as TimeObject).timezone).toBe("Asia/Urumqi");
    expect(r.headers.get("x-other-timezones")).toBe("Asia/Shanghai");
    expect(r.headers.get("access-control-expose-headers")).toContain("X-Other-Timezones");
  });

  test("OPTIONS preflight", async () => {
    const r = await get("/coordinates/1,2", { method: "OPTIONS" });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("bad input: 400, the one error shape, a message naming the wrong part", () => {
  const cases: [string, string][] = [
    ["91,0", "malformed coordinates: latitude 91 is outside -90..90"],
    ["0,181", "malformed coordinates: longitude 181 is outside -180..180"],
    ["abc", "malformed coordinates: expected {latitude},{longitude} in decimal degrees, e.g. 51.5074,-0.1278"],
    ["1e400,0", 'malformed coordinates: latitude "1e400" is not a decimal number; expected {latitude},{longitude} in decimal degrees, e.g. 51.5074,-0.1278'],
    ["NaN,NaN", 'malformed coordinates: latitude "NaN" is not a decimal number; expected {latitude},{longitude} in decimal degrees, e.g. 51.5074,-0.1278'],
    [",", "malformed coordinates: latitude is missing; expected {latitude},{longitude} in decimal degrees, e.g. 51.5074,-0.1278"],
    [`${"9".repeat(4096)},0`, "malformed coordinates: longer than 64 characters; expected {latitude},{longitude} in decimal degrees, e.g. 51.5074,-0.1278"],
    ["%zz,0", "malformed path: invalid percent-encoding"],
  ];
  for (const [segment, message] of cases) {
    test(`${segment.slice(0, 20)}${segment.length > 20 ? "..." : ""}`, async () => {
      for (const [suffix, parse] of [["", (t: string) => JSON.parse(t).error], [".txt", (t: string) => t.trimEnd()]] as const) {
        const r = await get(`/coordinates/${segment}${suffix}`);
        expect(r.status).toBe(400);
        expect(r.headers.get("access-control-allow-origin")).toBe("*");
        expect(parse(await r.text())).toBe(message);
      }
    });
  }

  test("no 5xx for hostile segments", async () => {
    const hostile = ["-", "+", "%2E,%2E", "1,2,3", "%00,0", "0,%00", "1,2%0A", "Infinity,0", "0x5,0", "1_0,0", "٣,٤", "1,-", "-1e-5,0", " ,"];
    for (const segment of hostile) {
      const r = await get(`/coordinates/${segment.startsWith("%") ? segment : encodeURIComponent(segment).replace(/%2C/g, ",")}`);
      expect(`${segment}: ${r.status}`).toBe(`${segment}: 400`);
    }
  });
});
