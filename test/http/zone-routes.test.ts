// /timezone/{name}/transitions, /timezone/{name}/info, /convert and the /api index,
// against a real server on a free port: bodies, .txt, HEAD, CORS, caching with ETags,
// and every refusal in the one error shape.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zoneRuleGuides } from "../../site/src/lib/guides-zone-rules.ts";
import { startTestServer } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const json = async (path: string) => {
  const r = await get(path);
  expect(r.status).toBe(200);
  return (await r.json()) as any;
};

async function expectError(path: string, status: number, message: string | RegExp) {
  for (const txt of [false, true]) {
    const [p, q] = path.split("?");
    const r = await get(txt ? `${p}.txt${q === undefined ? "" : `?${q}`}` : path);
    expect(r.status).toBe(status);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("no-store");
    const body = await r.text();
    const text = txt ? body.trimEnd() : (JSON.parse(body) as { error: string }).error;
    if (!txt) expect(Object.keys(JSON.parse(body))).toEqual(["error"]);
    if (typeof message === "string") expect(text).toBe(message);
    else expect(text).toMatch(message);
  }
}

/** The JSON example a guide shows, unescaped from its HTML. */
function guideExample(slug: string, index: number): unknown {
  const html = zoneRuleGuides.find((g) => g.slug === slug)!.html;
  const blocks = [...html.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1]!);
  return JSON.parse(blocks[index]!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"));
}

describe("GET /timezone/{name}/transitions", () => {
  const year2027 = "/timezone/America/New_York/transitions?from=2027-01-01T00:00:00Z&to=2028-01-01T00:00:00Z";

  test("the guide's example is exactly what the API answers", async () => {
    expect(await json(year2027)).toEqual(guideExample("dst-changes-ahead", 1));
  });

  test("a fixed window is cacheable with an ETag, and revalidates to 304", async () => {
    const r = await get(year2027);
    expect(r.headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=86400");
    expect(r.headers.get("x-tzdb-version")).toBe(sourceRelease());
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(new RegExp(`^"tz-${sourceRelease()}-[0-9a-z]+-[0-9a-z]+"$`));
    const again = await get(year2027, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await get(year2027.replace("2028-01-01", "2029-01-01"));
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  test("the default window: one year from now, cached briefly", async () => {
    const r = await get("/timezone/Europe/Paris/transitions");
    expect(r.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    const body = (await r.json()) as any;
    const from = Date.parse(body.from);
    expect(Math.abs(from - Date.now())).toBeLessThan(5000);
    expect(Date.parse(body.to) - from).toBe(365 * 86400 * 1000);
    expect(body.transitions.length).toBe(2);
    for (const t of body.transitions) expect(Date.parse(t.at)).toBeGreaterThanOrEqual(from);
  });

  test("a link answers with its own name, any letter case, a trailing slash; /api writes +00:00", async () => {
    const root = await json("/timezone/us/eastern/transitions/?from=2027-01-01T00:00:00Z&to=2028-01-01T00:00:00Z");
    expect(root.timezone).toBe("US/Eastern");
    expect(root.transitions.map((t: any) => t.at)).toEqual(["2027-03-14T07:00:00Z", "2027-11-07T06:00:00Z"]);
    const api = await json("/api/timezone/US/Eastern/transitions?from=1798000000&to=1830000000");
    expect(api.transitions.map((t: any) => t.at)).toEqual(["2027-03-14T07:00:00+00:00", "2027-11-07T06:00:00+00:00"]);
    expect(api.from).toBe(new Date(1798000000 * 1000).toISOString().replace(".000Z", "+00:00"));
  });

  test("changes of the DST flag or abbreviation alone are listed, with local_change none", async () => {
    // Europe/London 1968-10-27: BST became British Standard Time, the same +01:00 without DST.
    const body = await json("/timezone/Europe/London/transitions?from=1968-10-01T00:00:00Z&to=1968-11-01T00:00:00Z");
    expect(body.transitions).toHaveLength(1);
    expect(body.transitions[0]).toMatchObject({ utc_offset: "+01:00", utc_offset_before: "+01:00", dst: false, dst_before: true, local_change: "none" });
  });

  test("the cap of 1000 entries, and next_from picks up exactly where the answer stopped", async () => {
    const all: any[] = [];
    let from = "1800-01-01T00:00:00Z";
    let answers = 0;
    for (;;) {
      const body = await json(`/timezone/America/New_York/transitions?from=${from}&to=2900-01-01T00:00:00Z`);
      answers++;
      expect(body.transitions.length).toBeLessThanOrEqual(1000);
      all.push(...body.transitions);
      if (body.next_from === null) break;
      expect(body.transitions).toHaveLength(1000);
      from = body.next_from;
    }
    expect(answers).toBe(2);
    const times = all.map((t) => t.unixtime);
    expect(new Set(times).size).toBe(times.length);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The last: US rules, the first Sunday of November 2899, 2:00 EDT (06:00 UT).
    const firstSunday = [1, 2, 3, 4, 5, 6, 7].find((d) => new Date(Date.UTC(2899, 10, d)).getUTCDay() === 0)!;
    expect(all.at(-1).at).toBe(new Date(Date.UTC(2899, 10, firstSunday, 6)).toISOString().replace(".000Z", "Z"));
  });

  test(".txt: the window's lines, then each change after a blank line; HEAD: the headers alone", async () => {
    const r = await get(year2027.replace("/transitions", "/transitions.txt"));
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await r.text();
    expect(text.startsWith("timezone: America/New_York\nfrom: 2027-01-01T00:00:00Z\nto: 2028-01-01T00:00:00Z\nnext_from: \n\nunixtime: 1805007600\n")).toBe(true);
    expect(text).toContain("local_change: gap\n");
    const head = await get(year2027, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toMatch(new RegExp(`^"tz-${sourceRelease()}-`));
    expect(await head.text()).toBe("");
  });

  test("refusals", async () => {
    await expectError("/timezone/Nowhere/City/transitions", 404, "unknown location");
    await expectError("/timezone/UTC/transitions?from=yesterday", 400, /^invalid from: /);
    await expectError("/timezone/UTC/transitions?to=253402300800", 400, "to out of range: years 0001-9999 only");
    await expectError("/timezone/UTC/transitions?from=2027-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", 400, "invalid to: must be after from");
    await expectError("/timezone/UTC/transitions?from=%zz", 400, /^invalid from: /);
  });
});

describe("GET /timezone/{name}/info", () => {
  test("a link: its canonical zone, the links, countries, location, the state, the next change and posix_tz", async () => {
    const body = await json("/timezone/US/Eastern/info?at=2026-11-21T00:00:00Z");
    expect(body).toMatchObject({
      timezone: "US/Eastern", canonical: "America/New_York", is_link: true,
      countries: [{ code: "US", name: "United States" }],
      location: { latitude: 40.71417, longitude: -74.00639, comment: "Eastern (most areas)" },
      tzdb_version: sourceRelease(), utc_offset: "-05:00", abbreviation: "EST", dst: false, dst_offset: 0, raw_offset: -18000,
      posix_tz: "EST5EDT,M3.2.0,M11.1.0", posix_tz_from: "2007-03-11T07:00:00Z",
    });
    expect(body.links).toContain("US/Eastern");
    expect(body.links).toContain("EST5EDT");
    expect(body.next_transition).toMatchObject({ at: "2027-03-14T07:00:00Z", local_before: "2027-03-14T02:00:00", local_at: "2027-03-14T03:00:00", local_change: "gap" });
  });

  test("quoted numeric abbreviations, hours beyond 24, no next change, no countries", async () => {
    const kathmandu = await json("/timezone/Asia/Kathmandu/info");
    expect(kathmandu.posix_tz).toBe("<+0545>-5:45");
    expect(kathmandu.next_transition).toBeNull();
    expect((await json("/timezone/Asia/Gaza/info")).posix_tz).toBe("EET-2EEST,M3.4.4/50,M10.4.4/50");
    const utc = await json("/timezone/UTC/info");
    expect(utc).toMatchObject({ canonical: "Etc/UTC", countries: [], location: null, posix_tz: "UTC0", posix_tz_from: null });
  });

  test("cacheable until the next change, never longer than a day", async () => {
    const r = await get("/timezone/America/New_York/info");
    const [, maxAge, sharedMaxAge] = /^public, max-age=(\d+), s-maxage=(\d+)$/.exec(r.headers.get("cache-control")!)!.map(Number);
    expect(sharedMaxAge).toBe(maxAge!); // a shared cache no longer than a browser: never past the change
    const next = Date.parse(((await r.json()) as any).next_transition.at) / 1000;
    expect(maxAge).toBeLessThanOrEqual(Math.min(86400, Math.ceil(next - Date.now() / 1000)));
    expect(maxAge).toBeGreaterThan(0);
    const etag = r.headers.get("etag")!;
    expect((await get("/timezone/America/New_York/info", { headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  test(".txt and refusals", async () => {
    const text = await (await get("/timezone/Europe/Dublin/info.txt?at=2026-01-15T12:00:00Z")).text();
    expect(text).toContain("posix_tz: IST-1GMT0,M10.5.0,M3.5.0/1\n");
    expect(text).toContain("dst_offset: -3600\n");
    expect(text).toContain("countries: IE\n");
    expect(text).toContain("next_transition.local_change: gap\n");
    await expectError("/timezone/Nowhere/City/info", 404, "unknown location");
    await expectError("/timezone/UTC/info?at=noon", 400, /^invalid at: /);
  });
});

describe("GET /convert", () => {
  const ny = (time: string, mode?: string) =>
    `/convert?time=${time}&from=America/New_York&to=Europe/London${mode ? `&disambiguation=${mode}` : ""}`;

  test("a local time: the same instant as two time objects, client_ip null", async () => {
    const body = await json(ny("2026-07-01T12:00:00.25"));
    expect(Object.keys(body)).toEqual(["from", "to"]);
    expect(body.from).toMatchObject({ timezone: "America/New_York", datetime: "2026-07-01T12:00:00.250000-04:00", utc_datetime: "2026-07-01T16:00:00.250000Z", client_ip: null });
    expect(body.to).toMatchObject({ timezone: "Europe/London", datetime: "2026-07-01T17:00:00.250000+01:00", unixtime: body.from.unixtime });
  });

  test("a gap and an overlap with each disambiguation (Temporal's names and meaning)", async () => {
    const at = async (time: string, mode?: string) => (await json(ny(time, mode))).from.utc_datetime;
    expect(await at("2026-03-08T02:30:00")).toBe("2026-03-08T07:30:00.000000Z");
    expect(await at("2026-03-08T02:30:00", "compatible")).toBe("2026-03-08T07:30:00.000000Z");
    expect(await at("2026-03-08T02:30:00", "earlier")).toBe("2026-03-08T06:30:00.000000Z");
    expect(await at("2026-03-08T02:30:00", "later")).toBe("2026-03-08T07:30:00.000000Z");
    expect(await at("2026-11-01T01:30:00")).toBe("2026-11-01T05:30:00.000000Z");
    expect(await at("2026-11-01T01:30:00", "later")).toBe("2026-11-01T06:30:00.000000Z");
    await expectError(ny("2026-03-08T02:30:00", "reject"), 400,
      "2026-03-08T02:30:00 is skipped in America/New_York: the clock jumps over it (disambiguation=reject); use earlier or later");
    await expectError(ny("2026-11-01T01:30:00", "reject"), 400,
      "2026-11-01T01:30:00 is repeated in America/New_York: the clock shows it twice (disambiguation=reject); use earlier or later");
    expect(await at("2026-07-01T12:00:00", "reject")).toBe("2026-07-01T16:00:00.000000Z");
  });

  test("an instant with an offset, Z or unix seconds: `from` is only echoed", async () => {
    const body = await json("/convert?time=2026-07-01T12:00:00%2B09:00&from=Asia/Tokyo&to=America/Los_Angeles");
    expect(body.from.datetime).toBe("2026-07-01T12:00:00.000000+09:00");
    expect(body.to.datetime).toBe("2026-06-30T20:00:00.000000-07:00");
    const echoed = await json("/convert?time=1782874800&from=Pacific/Apia&to=UTC");
    expect(echoed.from.timezone).toBe("Pacific/Apia");
    expect(echoed.to.utc_datetime).toBe("2026-07-01T03:00:00.000000Z");
  });

  test("cacheable with an ETag; .txt prefixes each object's lines; /api writes +00:00", async () => {
    const r = await get(ny("2026-07-01T12:00:00"));
    expect(r.headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=86400, stale-while-revalidate=86400");
    expect((await get(ny("2026-07-01T12:00:00"), { headers: { "If-None-Match": r.headers.get("etag")! } })).status).toBe(304);
    const text = await (await get(ny("2026-07-01T12:00:00").replace("/convert", "/convert.txt"))).text();
    expect(text).toContain("from.timezone: America/New_York\n");
    expect(text).toContain("to.datetime: 2026-07-01T17:00:00.000000+01:00\n");
    expect((await json(`/api${ny("2026-07-01T12:00:00")}`)).to.utc_datetime).toBe("2026-07-01T16:00:00.000000+00:00");
  });

  test("refusals", async () => {
    await expectError("/convert?from=UTC&to=UTC", 400, "missing time");
    await expectError("/convert?time=2026-07-01T12:00:00&to=UTC", 400, "missing from");
    await expectError("/convert?time=2026-07-01T12:00:00&from=UTC", 400, "missing to");
    await expectError("/convert?time=2026-02-30T12:00:00&from=UTC&to=UTC", 400, /^invalid time: /);
    await expectError("/convert?time=noon&from=UTC&to=UTC", 400, /^invalid time: /);
    await expectError("/convert?time=2026-07-01T12:00:00&from=UTC&to=UTC&disambiguation=nearest", 400, "invalid disambiguation: use one of compatible, earlier, later, reject");
    await expectError("/convert?time=2026-07-01T12:00:00&from=Nowhere/City&to=UTC", 404, "unknown location");
    await expectError("/convert?time=0001-01-01T00:00:00&from=Asia/Tokyo&to=UTC", 400, "time out of range: years 0001-9999 only");
  });
});

describe("/api", () => {
  test("/api answers an index of the WorldTimeAPI profile instead of 404", async () => {
    for (const path of ["/api", "/api/"]) {
      const body = await json(path);
      expect(body.profile).toBe("worldtimeapi");
      expect(body.paths).toContain("/api/timezone/{area}/{location}");
      expect(body.paths).toContain("/api/{area}/{location}");
      expect(body.tzdb_version).toBe(sourceRelease());
    }
  });

  test("/api/{area}/{location} answers like /api/timezone/{area}/{location}; other paths keep their 404", async () => {
    for (const name of ["Europe/London", "America/Argentina/Salta", "US/Eastern"]) {
      for (const suffix of ["", ".txt"]) {
        const a = await (await get(`/api/${name}${suffix}?at=1759315363.821684`)).text();
        const b = await (await get(`/api/timezone/${name}${suffix}?at=1759315363.821684`)).text();
        expect(a).toBe(b);
      }
    }
    await expectError("/api/Nowhere/City", 404, "unknown location");
    await expectError("/api/nothing-here", 404, "not found");
    expect((await get("/Europe/London")).status).toBe(404); // the root has no alias: that is the website's space
  });
});

describe("info's JSON", () => {
  test("for every name, the body built from cached pieces is JSON.stringify of the answer", async () => {
    const { ZoneTable } = await import("../../server/tz/zone-table.ts");
    const { zoneInfo, zoneInfoJson } = await import("../../server/http/routes/zone-info-answer.ts");
    const { testDataDir } = await import("../support/test-server.ts");
    const zones = await ZoneTable.load(`${await testDataDir()}/zones.bin`);
    for (const profile of ["spec", "wta"] as const) {
      for (const n of zones.names) {
        const name = zones.resolve(n)!;
        for (const at of [0, 1795219200, 4102444800]) {
          expect(zoneInfoJson(zones, name, at, profile).body).toBe(JSON.stringify(zoneInfo(zones, name, at, profile).answer));
        }
      }
    }
  });
});
