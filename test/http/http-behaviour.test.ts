// HTTP behaviour against a real server on a free port: statuses, the one error shape,
// CORS, caching, HEAD, OPTIONS, and hostile paths and Host headers (a 4xx, never a 5xx).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

function expectCommonHeaders(r: Response) {
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  expect(r.headers.get("x-tzdb-version")).toBe("2026f");
}

describe("statuses and the error shape, JSON and .txt", () => {
  const cases: [string, number, string][] = [
    ["/timezone/Europe/London", 200, ""],
    ["/timezone/Nowhere/City", 404, "unknown location"],
    ["/ip/999.1.1.1", 400, "malformed ip"],
    ["/ip/10.1.2.3", 404, "unknown location"],
    ["/timezone/UTC?at=yesterday", 400, "invalid at: use unix seconds (up to 6 fraction digits) or an RFC 3339 instant such as 2026-11-21T10:00:00Z"],
    ["/timezone/UTC?at=99999999999999", 400, "invalid at: use unix seconds (up to 6 fraction digits) or an RFC 3339 instant such as 2026-11-21T10:00:00Z"],
    ["/timezone/UTC?at=253402300800", 400, "at out of range: years 0001-9999 only"],
    ["/timezone/%zz", 400, "malformed path: invalid percent-encoding"],
    ["/api/nothing-here", 404, "not found"],
  ];
  for (const [path, status, message] of cases) {
    for (const txt of [false, true]) {
      const [p, q] = path.split("?");
      const url = txt ? `${p}.txt${q ? `?${q}` : ""}` : path;
      test(`${url} -> ${status}`, async () => {
        const r = await get(url);
        expect(r.status).toBe(status);
        expectCommonHeaders(r);
        expect(r.headers.get("content-type")).toBe(txt ? "text/plain; charset=utf-8" : "application/json; charset=utf-8");
        expect(r.headers.get("cache-control")).toBe("no-store");
        const body = await r.text();
        if (status !== 200) expect(body).toBe(txt ? `${message}\n` : JSON.stringify({ error: message }));
      });
    }
  }

  test("an unknown site path is a JSON 404 with the same headers", async () => {
    const r = await get("/no/such/page");
    expect(r.status).toBe(404);
    expectCommonHeaders(r);
    expect(await r.json()).toEqual({ error: "not found" });
  });
  test("/ip from a loopback caller: no location, never a guess", async () => {
    const r = await get("/ip");
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: "unknown location" });
  });
});

describe("names, paths and lists", () => {
  test("case-insensitive, canonical in the answer, trailing slash accepted, links echo their own name", async () => {
    expect(((await (await get("/timezone/america/new_york/")).json()) as { timezone: string }).timezone).toBe("America/New_York");
    expect(((await (await get("/timezone/US/Eastern")).json()) as { timezone: string }).timezone).toBe("US/Eastern");
    expect(((await (await get("/timezone/Europe%2FLondon")).json()) as { timezone: string }).timezone).toBe("Europe/London");
  });
  test("lists: sorted, cacheable, with an ETag that answers 304", async () => {
    const r = await get("/timezone");
    expect(r.status).toBe(200);
    expectCommonHeaders(r);
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"tz-2026f-[0-9a-f]+"$/);
    const names = (await r.json()) as string[];
    expect(names.length).toBe(597);
    expect([...names].sort()).toEqual(names);
    const again = await get("/timezone", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const txt = await (await get("/timezone.txt")).text();
    expect(txt.split("\n").length).toBe(598);
    expect(await (await get("/timezone/america/argentina")).json()).toContain("America/Argentina/Salta");
  });
  test("hostile paths get a 4xx", async () => {
    for (const path of ["/timezone/..%2F..%2Fetc%2Fpasswd", "/timezone/../../etc/passwd", "/timezone/%00", "/timezone/Europe%00London",
      `/timezone/${"A".repeat(4096)}`, `/ip/${"1".repeat(4096)}`, "/ip/fe80::1%25eth0", "/ip/%", "/timezone/UTC?at=%"]) {
      const r = await get(path);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });
});

describe("methods, CORS, caching", () => {
  test("HEAD answers like GET without a body", async () => {
    const r = await get("/timezone/Europe/London", { method: "HEAD" });
    expect(r.status).toBe(200);
    expectCommonHeaders(r);
    expect(await r.text()).toBe("");
    expect((await get("/timezone/Nope", { method: "HEAD" })).status).toBe(404);
  });
  test("OPTIONS preflight: 204 with methods, headers and a max-age", async () => {
    const r = await get("/timezone/Europe/London", {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-custom" },
    });
    expect(r.status).toBe(204);
    expectCommonHeaders(r);
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(r.headers.get("access-control-allow-headers")).toBe("*");
    expect(r.headers.get("access-control-max-age")).toBe("86400");
  });
  test("other methods: 405 with Allow, in the error shape", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await get("/timezone/UTC", { method, body: method === "DELETE" ? undefined : "x" });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expectCommonHeaders(r);
      expect(await r.json()).toEqual({ error: "method not allowed" });
    }
  });
});

describe("raw requests", () => {
  test("no Host header: answered from the path, 4xx or 200, never 5xx", async () => {
    const response = await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(statusOf(response)).toBeGreaterThanOrEqual(200);
    expect(statusOf(response)).toBeLessThan(500);
  });
  test("a garbage Host header does not change what is answered", async () => {
    const response = await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nHost: %%%/../\u0001bad host\r\nConnection: close\r\n\r\n");
    expect(statusOf(response)).toBeGreaterThanOrEqual(200);
    expect(statusOf(response)).toBeLessThan(500);
    const ok = await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nHost: evil.example:99999\r\nConnection: close\r\n\r\n");
    expect(statusOf(ok)).toBe(200);
    expect(ok).toContain('"timezone":"UTC"');
  });
  test("an absolute-form request target", async () => {
    const response = await rawRequest(server.port, "GET http://other.example/timezone/UTC HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n");
    expect(statusOf(response)).toBe(200);
  });
});
