// GET /clock?zones= (and /api/clock): many time objects for one clock reading. Each object
// is byte for byte what /timezone/{name}?at=<that instant> answers (both profiles, JSON and
// .txt, client_ip included), all share one unixtime and microseconds, duplicates are kept
// in order; an unknown name is a 404 naming it, more than 100 a 400; the request costs the
// client's rate budget one time object per zone.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let limited: Awaited<ReturnType<typeof startTestServer>>;
let allNames: string[];

beforeAll(async () => {
  // The client is 8.8.8.8 through a trusted proxy, so client_ip is an address that differs from the socket's.
  server = await startTestServer({ RATE_LIMIT: "off", TRUST_PROXY: "loopback" });
  limited = await startTestServer({ RATE_LIMIT: "20/600s", TRUST_PROXY: "loopback" });
  allNames = (await (await fetch(`${server.url}/timezone`)).json()) as string[];
}, 120_000);
afterAll(() => {
  server?.stop();
  limited?.stop();
});

const VISITOR = { "X-Forwarded-For": "8.8.8.8" };
const get = (path: string, headers: Record<string, string> = VISITOR) => fetch(`${server.url}${path}`, { headers });

/**
 * 100 names: the pitfall zones (negative DST, +2h DST, half-hour DST, +05:45, Etc signs, Links)
 * in odd spellings, then names spread over the whole list.
 */
function hundredNames(): string[] {
  const pitfalls = ["europe/dublin", "Antarctica/Troll", "AUSTRALIA/LORD_HOWE", "Asia/Kathmandu", "Etc/GMT-14", "Etc/GMT+5", "US/Eastern",
    "Asia/Calcutta", "America/Havana", "America/Winnipeg", "Africa/Casablanca", "Pacific/Apia", "UTC", "EST"];
  const step = Math.floor(allNames.length / (100 - pitfalls.length));
  const spread = Array.from({ length: 100 - pitfalls.length }, (_, i) => allNames[i * step]!);
  return [...pitfalls, ...spread];
}

describe("one reading of the clock, the single answer's bytes", () => {
  for (const prefix of ["", "/api"]) {
    for (const suffix of ["", ".txt"]) {
      test(`${prefix || "root"}${suffix || " JSON"}: 100 names, each the answer of ${prefix}/timezone/{name}${suffix}?at= at that instant`, async () => {
        const names = hundredNames();
        expect(names).toHaveLength(100);
        const response = await get(`${prefix}/clock${suffix}?zones=${names.map(encodeURIComponent).join(",")}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("cache-control")).toBe("no-store");
        const body = await response.text();
        // The one instant, read from the answer itself (the first object's utc_datetime).
        const utc = /utc_datetime"?: ?"?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})/.exec(body)!;
        const seconds = Date.parse(`${utc[1]}Z`) / 1000;
        const at = `${seconds}.${utc[2]}`;
        const singles = await Promise.all(names.map(async (name) => {
          const single = await get(`${prefix}/timezone/${name}${suffix}?at=${at}`);
          expect(single.status).toBe(200);
          return single.text();
        }));
        expect(body).toBe(suffix === "" ? `[${singles.join(",")}]` : singles.join("\n"));
        // All 100 share one unixtime and one microsecond reading.
        const instants = new Set(singles.map((s) => /utc_datetime"?: ?"?([^"\n]+)/.exec(s)![1]));
        const unixtimes = new Set(singles.map((s) => /unixtime"?: ?(\d+)/.exec(s)![1]));
        expect({ instants: instants.size, unixtimes: unixtimes.size }).toEqual({ instants: 1, unixtimes: 1 });
        expect(singles.every((s) => s.includes("8.8.8.8"))).toBe(true);
        if (suffix === "") expect((JSON.parse(body) as { timezone: string }[]).map((o) => o.timezone).slice(0, 3)).toEqual(["Europe/Dublin", "Antarctica/Troll", "Australia/Lord_Howe"]);
      }, 60_000);
    }
  }

  test("?at= is the instant of every object, as on the single route", async () => {
    const at = "2026-03-29T01:30:00.25Z"; // Dublin and London mid-change of 2026
    const names = ["Europe/Dublin", "Europe/London", "America/New_York", "Asia/Kathmandu"];
    const body = await (await get(`/clock?zones=${names.join(",")}&at=${at}`)).text();
    const singles = await Promise.all(names.map(async (n) => (await get(`/timezone/${n}?at=${at}`)).text()));
    expect(body).toBe(`[${singles.join(",")}]`);
    expect(body).toContain('"utc_datetime":"2026-03-29T01:30:00.250000Z"');
  });

  test("duplicates are kept, in request order; HEAD answers the headers alone", async () => {
    const objects = (await (await get("/clock?zones=UTC,Asia/Tokyo,utc,UTC")).json()) as { timezone: string; utc_datetime: string }[];
    expect(objects.map((o) => o.timezone)).toEqual(["UTC", "Asia/Tokyo", "UTC", "UTC"]);
    expect(new Set(objects.map((o) => o.utc_datetime)).size).toBe(1);
    const head = await fetch(`${server.url}/clock?zones=UTC,Asia/Tokyo`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(600);
  });

  test("a trailing slash and percent-encoded names are fine", async () => {
    const objects = (await (await get("/clock/?zones=America%2FArgentina%2FSalta%2CEurope/London")).json()) as { timezone: string }[];
    expect(objects.map((o) => o.timezone)).toEqual(["America/Argentina/Salta", "Europe/London"]);
  });
});

describe("refusals", () => {
  const error = async (path: string) => {
    const r = await get(path);
    return { status: r.status, body: r.headers.get("content-type")!.startsWith("application/json") ? await r.json() : await r.text() };
  };

  test("an unknown name: 404 naming it (JSON and .txt, both profiles)", async () => {
    expect(await error("/clock?zones=UTC,Mars/Olympus_Mons,Europe/London")).toEqual({ status: 404, body: { error: "unknown location: Mars/Olympus_Mons" } });
    expect(await error("/api/clock.txt?zones=Europe/Lndon")).toEqual({ status: 404, body: "unknown location: Europe/Lndon\n" });
    // An area is a list on /timezone/{area}, no time object: unknown here.
    expect(await error("/clock?zones=America")).toEqual({ status: 404, body: { error: "unknown location: America" } });
    // What is echoed is clipped and printable.
    const long = "A".repeat(300);
    expect(await error(`/clock?zones=${long}`)).toEqual({ status: 404, body: { error: `unknown location: ${"A".repeat(64)}...` } });
    expect(await error("/clock?zones=Europe%0ALondon")).toEqual({ status: 404, body: { error: "unknown location: Europe?London" } });
  });

  test("more than 100 names: 400; exactly 100: 200", async () => {
    const hundred = Array.from({ length: 100 }, () => "UTC").join(",");
    expect((await get(`/clock?zones=${hundred}`)).status).toBe(200);
    expect(await error(`/clock?zones=${hundred},UTC`)).toEqual({ status: 400, body: { error: "too many zones: 101 names, at most 100 per request" } });
    expect((await error(`/clock?zones=${"UTC,".repeat(1000)}UTC`)).status).toBe(400);
  });

  test("no list, an empty name, a bad at or a broken escape: 400", async () => {
    expect(await error("/clock")).toEqual({ status: 400, body: { error: "missing zones: a comma-separated list of up to 100 timezone names" } });
    expect(await error("/clock?zones=")).toEqual({ status: 400, body: { error: "missing zones: a comma-separated list of up to 100 timezone names" } });
    expect(await error("/clock?zones=UTC,,UTC")).toEqual({ status: 400, body: { error: "invalid zones: name 2 is empty" } });
    expect((await error("/clock?zones=UTC&at=noon")).status).toBe(400);
    expect((await error("/clock?zones=UTC%ZZ")).status).toBe(400);
    // The first instant is still 0000 in New York's local time: refused as the single route refuses it.
    expect((await error("/clock?zones=UTC,America/New_York&at=-62135596800")).status).toBe(400);
    expect((await error("/timezone/America/New_York?at=-62135596800")).status).toBe(400);
  });
});

describe("rate budget", () => {
  const from = (client: string) => ({ "X-Forwarded-For": client });
  const remaining = (r: Response) => Number(/;r=(\d+);/.exec(r.headers.get("ratelimit") ?? "")?.[1]);
  const ask = (path: string, client: Record<string, string>) => fetch(`${limited.url}${path}`, { headers: client });
  const utc = (n: number) => Array(n).fill("UTC").join(",");

  test("a /clock of n zones takes n requests of the client's budget, as n single requests would", async () => {
    const client = from("203.0.113.21");
    expect(remaining(await ask("/timezone/UTC", client))).toBe(19);
    const seven = await ask(`/clock?zones=${utc(7)}`, client);
    expect(seven.status).toBe(200);
    expect(remaining(seven)).toBe(12);
    const twelve = await ask(`/api/clock.txt?zones=${utc(12)}`, client);
    expect(twelve.status).toBe(200);
    expect(remaining(twelve)).toBe(0);
    expect((await ask("/timezone/UTC", client)).status).toBe(429);
  });

  test("admitted while a request is left, a large /clock leaves its client in debt for the rest of its cost", async () => {
    const client = from("203.0.113.22");
    expect((await ask(`/clock?zones=${utc(100)}`, client)).status).toBe(200);
    const refused = await ask("/sync", client);
    expect(refused.status).toBe(429);
    // 20 per 600 s is one request per 30 s: the 80 requests of debt, then one, take 81 x 30 s.
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(80 * 30);
  });

  test("a refused /clock (unknown name, too many names) costs one request, as any error does", async () => {
    const client = from("203.0.113.23");
    expect(remaining(await ask("/clock?zones=UTC,Nowhere/City", client))).toBe(19);
    expect(remaining(await ask(`/clock?zones=${utc(150)}`, client))).toBe(18);
  });
});
