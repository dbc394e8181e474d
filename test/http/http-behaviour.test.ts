// HTTP behaviour against a real server on a free port: statuses, the one error shape,
// CORS, caching, HEAD, OPTIONS, and hostile paths and Host headers (a 4xx, never a 5xx).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";
import { sourceRelease, zicNames } from "../support/tzdb-reference.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

function expectCommonHeaders(r: Response) {
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  expect(r.headers.get("x-tzdb-version")).toBe(sourceRelease());
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
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600, s-maxage=3600, stale-while-revalidate=3600");
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(new RegExp(`^"tz-${sourceRelease()}-[0-9a-z]+-[0-9a-z]+"$`));
    // Every name zic writes for data/tzdb (Zones and Links, Factory aside), sorted.
    const names = (await r.json()) as string[];
    expect(names).toEqual(zicNames());
    const again = await get("/timezone", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(await (await get("/timezone.txt")).text()).toBe(`${names.join("\n")}\n`);
    expect(await (await get("/timezone/america/argentina")).json()).toContain("America/Argentina/Salta");
  });
  const hostile: [string, number, string][] = [
    ["/timezone/..%2F..%2Fetc%2Fpasswd", 404, "unknown location"], // a name, decoded, never a file path
    ["/timezone/../../etc/passwd", 404, "not found"], // the client resolves the dot segments: /etc/passwd
    ["/timezone/%00", 404, "unknown location"],
    ["/timezone/Europe%00London", 404, "unknown location"],
    [`/timezone/${"A".repeat(4096)}`, 404, "unknown location"],
    [`/ip/${"1".repeat(4096)}`, 400, "malformed ip"],
    ["/ip/fe80::1%25eth0", 400, "malformed ip"], // a zone index is not part of an address here
    ["/ip/%", 400, "malformed ip"],
    ["/timezone/%", 400, "malformed path: invalid percent-encoding"],
    ["/timezone/UTC?at=%", 400, "invalid at: use unix seconds (up to 6 fraction digits) or an RFC 3339 instant such as 2026-11-21T10:00:00Z"],
  ];
  for (const [path, status, message] of hostile) {
    test(`hostile path ${path.slice(0, 40)} -> ${status} ${message}`, async () => {
      const r = await get(path);
      expect(r.status).toBe(status);
      expectCommonHeaders(r);
      expect(await r.json()).toEqual({ error: message });
    });
  }
  test("dot segments sent as they are: resolved by the server to a path it does not serve", async () => {
    const response = await rawRequest(server.port, "GET /timezone/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(statusOf(response)).toBe(404);
    expect(response).toEndWith('\r\n\r\n{"error":"not found"}');
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
  // Bun's parser refuses these before our handler sees them (DESIGN.md: Bun's own 400 stands).
  const BUNS_OWN_400 = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";
  test("no Host header: HTTP/1.1 requires one (Bun's 400); HTTP/1.0 is answered from the path", async () => {
    expect(await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nConnection: close\r\n\r\n")).toBe(BUNS_OWN_400);
    const old = await rawRequest(server.port, "GET /timezone/UTC HTTP/1.0\r\n\r\n");
    expect(statusOf(old)).toBe(200);
    expect(old).toContain('"timezone":"UTC"');
  });
  test("a garbage Host header does not change what is answered", async () => {
    // A control character in a header value: Bun's 400, with nothing of ours in it.
    expect(await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nHost: %%%/../\u0001bad host\r\nConnection: close\r\n\r\n")).toBe(BUNS_OWN_400);
    for (const host of ["%%%/../bad host", ""]) {
      const response = await rawRequest(server.port, `GET /timezone/UTC HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(statusOf(response)).toBe(200);
      expect(response).toContain('"timezone":"UTC"');
    }
    const ok = await rawRequest(server.port, "GET /timezone/UTC HTTP/1.1\r\nHost: evil.example:99999\r\nConnection: close\r\n\r\n");
    expect(statusOf(ok)).toBe(200);
    expect(ok).toContain('"timezone":"UTC"');
  });
  test("an absolute-form request target", async () => {
    const response = await rawRequest(server.port, "GET http://other.example/timezone/UTC HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n");
    expect(statusOf(response)).toBe(200);
  });
});
