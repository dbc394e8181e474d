// Cost-aware answers (issue 17, F4, and the informational items met on the way): an ETag
// named by the normalised query and the data version, so a revalidation builds no body;
// cacheable answers kept encoded within a byte budget; expensive answers charged to the
// client's budget by their size; each name list its own ETag; /api.txt the index as
// text; /convert's range errors naming `time`; two Host headers a 400.

import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { AnswerCache } from "../../server/http/caching/answer-cache.ts";
import { BYTES_PER_TOKEN, costOfBody } from "../../server/http/limits/answer-cost.ts";
import { DEVICE_LIST_BUILD_COST } from "../../server/http/routes/device-routes.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";
import { startTestServer } from "../support/test-server.ts";

const FULL_RANGE = "/timezone/America/New_York/transitions?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  // The default limit, clients told apart through a trusted proxy (this test's loopback requests).
  server = await startTestServer({ TRUST_PROXY: "loopback", RATE_LIMIT: "120/60s" });
}, 120_000);
afterAll(() => server?.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
const remaining = (r: Response) => Number(/r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1]);

describe("the device lists (/device, /device.txt, /device.csv)", () => {
  test("for now: one ETag and one body through a period (not a new one every second); a revalidation is a 304 that builds nothing and costs 1", async () => {
    for (const path of ["/device", "/device.txt", "/device.csv"]) {
      const first = await get(path, { "X-Forwarded-For": "198.51.100.30" });
      const body = await first.text();
      await Bun.sleep(1100); // another second of the clock
      const second = await get(path, { "X-Forwarded-For": "198.51.100.30" });
      const again = await second.text();
      if (path === "/device") {
        // `at` is the start of the period the list was computed for: before now, its refresh_after after it.
        const list = JSON.parse(again) as { at: string; refresh_after: string };
        expect(Date.parse(list.at)).toBeLessThanOrEqual(Date.now());
        expect(Date.parse(list.refresh_after)).toBeGreaterThan(Date.now());
        if (list.at !== (JSON.parse(body) as { at: string }).at) continue; // the hour turned between the two: another period, rightly
      }
      expect({ path, etag: second.headers.get("etag"), same: again === body }).toEqual({ path, etag: first.headers.get("etag"), same: true });
      const stringify = spyOn(JSON, "stringify");
      try {
        const client = { "X-Forwarded-For": `198.51.100.${31 + path.length}` };
        const before = remaining(await get("/timezone/UTC", client));
        const revalidated = await get(path, { ...client, "If-None-Match": second.headers.get("etag")! });
        expect({ path, status: revalidated.status, cost: before - remaining(revalidated) }).toEqual({ path, status: 304, cost: 1 });
        expect(stringify.mock.results.filter((r) => typeof r.value === "string" && r.value.length > 10_000).length).toBe(0);
      } finally {
        stringify.mockRestore();
      }
    }
  });
  test("a list for an ?at= instant (each a new build) costs what building it costs; its revalidation 1", async () => {
    const client = { "X-Forwarded-For": "198.51.100.50" };
    const before = remaining(await get("/timezone/UTC", client));
    const built = await get("/device.csv?at=2027-02-03T04:05:06Z", client);
    expect(built.status).toBe(200);
    expect(before - remaining(built)).toBe(DEVICE_LIST_BUILD_COST);
    const revalidated = await get("/device.csv?at=2027-02-03T04:05:06Z", { ...client, "If-None-Match": built.headers.get("etag")! });
    expect({ status: revalidated.status, cost: remaining(built) - remaining(revalidated) }).toEqual({ status: 304, cost: 1 });
  });
});

describe("ETags of the normalised query", () => {
  test("a revalidation of the full-range transitions answers 304 without building the body", async () => {
    const r = await get(FULL_RANGE, { "X-Forwarded-For": "198.51.100.1" });
    expect(r.status).toBe(200);
    const body = await r.text();
    expect(body.length).toBeGreaterThan(200_000);
    const etag = r.headers.get("etag")!;
    // The same instants written another way are the same query: the same ETag.
    const same = await get("/timezone/america/new_york/transitions?from=-62135596800&to=253402300799", { "X-Forwarded-For": "198.51.100.1" });
    expect(same.headers.get("etag")).toBe(etag);
    expect(await same.text()).toBe(body.replace(/America\/New_York/, "America/New_York"));
    // No big JSON is made to answer a matching If-None-Match (the old ETag hashed the body it first built).
    const stringify = spyOn(JSON, "stringify");
    try {
      const revalidated = await get(FULL_RANGE, { "If-None-Match": etag, "X-Forwarded-For": "198.51.100.2" });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get("etag")).toBe(etag);
      expect(revalidated.headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=86400");
      expect(stringify.mock.results.filter((r) => typeof r.value === "string" && r.value.length > 10_000).length).toBe(0);
    } finally {
      stringify.mockRestore();
    }
  });
  test("each name list has its own ETag, and one list's ETag does not revalidate another", async () => {
    const paths = ["/timezone", "/timezone/America", "/timezone/Europe", "/timezone/America/Argentina", "/timezone/America.txt"];
    const etags = await Promise.all(paths.map(async (p) => (await get(p)).headers.get("etag")));
    expect(new Set(etags).size).toBe(paths.length);
    expect((await get("/timezone/america", { "If-None-Match": etags[1]! })).status).toBe(304); // the same list, any letter case
    expect((await get("/timezone/Europe", { "If-None-Match": etags[1]! })).status).toBe(200);
    expect((await get("/timezone/Nowhere", { "If-None-Match": "*" })).status).toBe(404); // no list there: never a 304
  });
  test("info: the same ETag through one period of the zone (and one day: device_tz's refresh_after moves with it), another after the clock changes", async () => {
    const at = (t: string) => get(`/timezone/America/New_York/info?at=${t}`);
    const [a, b, c] = await Promise.all([at("2027-04-01T00:00:00Z"), at("2027-04-01T23:00:00Z"), at("2027-12-01T00:00:00Z")]);
    expect(a.headers.get("etag")).toBe(b.headers.get("etag")!);
    expect(await a.text()).toBe(await b.text());
    expect(c.headers.get("etag")).not.toBe(a.headers.get("etag"));
  });
});

describe("what an answer costs", () => {
  test("by body size: 1 token, and 1 more per full 16 KiB; a 304 costs 1", () => {
    expect(BYTES_PER_TOKEN).toBe(16384);
    expect([costOfBody(350), costOfBody(16383), costOfBody(16384), costOfBody(311_875)]).toEqual([1, 1, 2, 20]);
  });
  test("over HTTP: a full-range transitions answer costs its size, a revalidation and a time object cost 1", async () => {
    const client = { "X-Forwarded-For": "203.0.113.61" };
    const first = await get(FULL_RANGE, client);
    const bytes = (await first.arrayBuffer()).byteLength;
    expect(remaining(first)).toBe(120 - costOfBody(bytes));
    const etag = first.headers.get("etag")!;
    expect(remaining(await get(FULL_RANGE, { ...client, "If-None-Match": etag }))).toBe(120 - costOfBody(bytes) - 1);
    expect(remaining(await get("/timezone/UTC", client))).toBe(120 - costOfBody(bytes) - 2);
    // From the cache it costs the same as built.
    expect(remaining(await get(FULL_RANGE, client))).toBe(120 - 2 * costOfBody(bytes) - 2);
  });
  test("TimeZoneDB's zone list costs its size, as the native lists do (48-73 KB built each time cost 1 token; issue 30)", async () => {
    for (const [format, client] of [["json", "203.0.113.62"], ["xml", "203.0.113.63"]] as const) {
      const r = await get(`/v2.1/list-time-zone?key=K&format=${format}`, { "X-Forwarded-For": client });
      const bytes = (await r.arrayBuffer()).byteLength;
      expect(bytes).toBeGreaterThan(3 * BYTES_PER_TOKEN);
      expect({ format, charged: 120 - remaining(r) }).toEqual({ format, charged: costOfBody(bytes) });
    }
  });
  test("a name's release changes over 0001-9999 cost a token per 400 years walked (a 2 KB answer, 90 time objects of work); 1800-2100 costs 1; a 304 costs 1", async () => {
    const path = "/timezone/America/New_York/changes?from=2006a&to=2026f";
    const whole = await get(`${path}&start=0001-01-01T00:00:00Z&end=9999-12-31T00:00:00Z`, { "X-Forwarded-For": "203.0.113.64" });
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBeLessThan(BYTES_PER_TOKEN);
    expect(120 - remaining(whole)).toBe(25); // 9,999 years
    const usual = await get(path, { "X-Forwarded-For": "203.0.113.65" });
    expect(120 - remaining(usual)).toBe(1); // 1800-2100: 301 years
    const revalidated = await get(`${path}&start=0001-01-01T00:00:00Z&end=9999-12-31T00:00:00Z`, { "X-Forwarded-For": "203.0.113.66", "If-None-Match": whole.headers.get("etag")! });
    expect({ status: revalidated.status, charged: 120 - remaining(revalidated) }).toEqual({ status: 304, charged: 1 });
  });
  test("one client repeating the costliest query is refused after its budget: 6 answers, not 120", async () => {
    const statuses: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 20; i++) {
      // A new window each time (a cache in front would not help).
      const r = await get(FULL_RANGE.replace("23:59:59Z", `23:59:${String(i + 10)}Z`), { "X-Forwarded-For": "203.0.113.62" });
      statuses.push(r.status);
      bytes ||= (await r.arrayBuffer()).byteLength;
    }
    // Admitted while a token is left: 120 tokens at 20 a time.
    expect(costOfBody(bytes)).toBe(20);
    expect(statuses.filter((s) => s === 200).length).toBe(6);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe("the answer cache", () => {
  test("holds at most its byte budget, least recently used out first; an answer over a quarter of it is answered, not kept", () => {
    const cache = new AnswerCache(100_000, "tz-test");
    const body = (n: number) => new Uint8Array(n);
    for (let i = 0; i < 50; i++) cache.put(`k${i}`, cache.etagOf(`k${i}`), body(10_000));
    expect(cache.usedBytes).toBeLessThanOrEqual(100_000);
    expect(cache.size).toBe(9);
    expect(cache.get("k0")).toBeUndefined();
    expect(cache.get("k49")?.body.size).toBe(10_000);
    cache.get("k41"); // used: now the newest
    cache.put("x", cache.etagOf("x"), body(10_000));
    expect(cache.get("k41")).toBeDefined();
    expect(cache.get("k42")).toBeUndefined();
    cache.put("big", cache.etagOf("big"), body(30_000));
    expect(cache.get("big")).toBeUndefined();
    expect(cache.etagOf("a")).not.toBe(cache.etagOf("b"));
    expect(new AnswerCache(100, "tz-other").etagOf("a")).not.toBe(cache.etagOf("a")); // another data version
  });
});

describe("informational items", () => {
  test("/api.txt is the index as text, as /api/.txt is", async () => {
    const [a, b] = await Promise.all([get("/api.txt"), get("/api/.txt")]);
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await a.text()).toBe(await b.text());
  });
  test("/convert's range errors name `time`, the parameter it has", async () => {
    for (const time of ["9999-12-31T23:00:00Z", "0001-01-01T00:30:00Z"]) {
      const to = time.startsWith("9999") ? "Asia/Tokyo" : "America/New_York";
      const r = await get(`/convert?time=${time}&from=UTC&to=${to}`);
      expect(r.status).toBe(400);
      const { error } = (await r.json()) as { error: string };
      expect(error).toStartWith("time out of range");
      expect(error).not.toMatch(/^at /);
    }
  });
  test("two Host headers: 400 in the error shape (RFC 9112 section 3.2)", async () => {
    const text = await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n");
    expect(statusOf(text)).toBe(400);
    expect(text.slice(text.indexOf("\r\n\r\n") + 4)).toBe('{"error":"bad request: more than one Host header"}');
    expect(statusOf(await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n"))).toBe(200);
  });
});
