// The path is matched as sent. Bun's req.url has already been through the URL parser,
// which resolves dot segments (`.`, `..`, `%2e` in any case) and would let them change
// the route (`/api/../timezone/UTC` losing the /api profile, `/timezone/%2e%2e` answering
// the home page); such paths, and paths with an empty segment or deeper than any route,
// are a JSON 404 instead. Names fold ASCII letters only: the Kelvin sign is not a K.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type Service } from "../../server/process/service.ts";
import { testConfig, testSiteDir } from "../support/test-server.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";

let service: Service;
beforeAll(async () => {
  service = await startServer(await testConfig({ SITE_DIR: await testSiteDir(), RATE_LIMIT: "off" }), { sharePort: false });
}, 120_000);
afterAll(() => service?.server.stop(true));

/** Sent byte for byte over a socket: fetch() and curl resolve dot segments before sending. */
async function send(path: string, method = "GET", accept = "text/html,*/*;q=0.8") {
  const text = await rawRequest(service.server.port!, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
  return { status: statusOf(text), type: /\r\ncontent-type: ([^\r]*)/i.exec(text)?.[1], body: text.slice(text.indexOf("\r\n\r\n") + 4) };
}

const NOT_FOUND = { status: 404, type: "application/json; charset=utf-8", body: JSON.stringify({ error: "not found" }) };
const DOTS = [".", "..", "%2e", "%2E", "%2e%2e", "%2E%2E", "%2e%2E", "%2E%2e", ".%2e", ".%2E", "%2e.", "%2E."];

describe("dot segments never change the route", () => {
  test.each([
    "/timezone/%2e%2e", "/api/../timezone/UTC", "/api/%2E%2E/timezone/UTC", "/timezone/Europe/../UTC", "/timezone/.",
    "/timezone/America/..", "/timezone/America/../", "/./timezone/UTC", "/timezone/./UTC", "/ip/8.8.8.8/..", "/../timezone/UTC",
    "/api/timezone/Europe/%2e%2e/UTC.txt", "/health/../metrics", "/_astro/../index.html", "/docs/..",
    "http://localhost/api/../timezone/UTC", "HTTP://localhost/timezone/%2E%2E", // absolute-form targets
  ])("%s: the JSON 404, whatever the client accepts", async (path) => {
    expect({ path, ...(await send(path)) }).toEqual({ path, ...NOT_FOUND });
    expect({ path, ...(await send(path, "GET", "application/json")) }).toEqual({ path, ...NOT_FOUND });
  });
  test("every spelling of a dot segment, at every depth up to the deepest route and beyond", async () => {
    const segments = ["api", "timezone", "America", "Argentina", "Buenos_Aires", "x", "y", "z", "w", "v"];
    for (const dot of DOTS) {
      for (let depth = 0; depth <= segments.length; depth++) {
        for (const tail of ["", "/", "/UTC"]) {
          const path = `/${[...segments.slice(0, depth), dot].join("/")}${tail}`;
          expect({ path, ...(await send(path)) }).toEqual({ path, ...NOT_FOUND });
        }
      }
    }
  }, 60_000);
  test("an empty segment (which `..` could remove) and a path deeper than any route", async () => {
    for (const path of ["//../timezone/UTC", "/api//../timezone/UTC", "/timezone//UTC", "//", "/timezone/Europe//London",
      "/a/b/c/d/e/f/g/h/i/../../../../../../../../../timezone/UTC", `/timezone${"/x".repeat(40)}`]) {
      expect({ path, ...(await send(path)) }).toEqual({ path, ...NOT_FOUND });
    }
  });
  test("a backslash (the URL parser's `/`) cannot move a request to another route or profile", async () => {
    for (const path of ["/api\\..\\timezone\\UTC", "/x\\..\\timezone\\UTC", "/timezone\\..\\ip\\8.8.8.8", "/api/x\\..\\timezone\\UTC",
      "/api/timezone\\..\\ip\\8.8.8.8", "/x\\..\\api\\timezone\\UTC", "/api\\timezone\\UTC", "/timezone\\UTC", "/docs\\..\\health"]) {
      expect({ path, ...(await send(path)) }).toEqual({ path, ...NOT_FOUND });
    }
  });
  test("HEAD and OPTIONS on such a path: the same 404 headers, the preflight", async () => {
    const head = await send("/api/../timezone/UTC", "HEAD");
    expect({ status: head.status, type: head.type, body: head.body }).toEqual({ status: 404, type: "application/json; charset=utf-8", body: "" });
    expect((await send("/api/../timezone/UTC", "OPTIONS")).status).toBe(204);
  });
  test("any other method on such a path is refused as on any path (refused spellings are routed for GET and HEAD only)", async () => {
    for (const path of ["/api/../timezone/UTC", "/timezone/%2e%2e", "/clock/%2E", `/timezone${"/x".repeat(12)}`, "//x"]) {
      for (const method of ["POST", "PUT", "DELETE", "PATCH", "TRACE", "PROPFIND"]) {
        const text = await rawRequest(service.server.port!, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        expect({ path, method, status: statusOf(text), allow: /\r\nallow: ([^\r]*)/i.exec(text)?.[1] }).toEqual({ path, method, status: 405, allow: "GET, HEAD, OPTIONS" });
      }
    }
  });
  test("paths without dot segments answer as before: names, lists, trailing slashes, the site, dotted file names", async () => {
    const ok: [string, number, string][] = [
      ["/timezone/Europe/London", 200, '"timezone":"Europe/London"'],
      ["/api/timezone/Europe/London.txt", 200, "timezone: Europe/London"],
      ["/timezone/America/Argentina/", 200, '"America/Argentina/Salta"'],
      ["/timezone/", 200, '"Europe/London"'],
      ["/ip/8.8.8.8", 200, '"client_ip":"8.8.8.8"'],
      ["/health/live", 200, '"live":true'],
      ["/openapi.json", 200, '"openapi"'],
      ["/", 200, "<title>"],
      ["/docs/", 200, "<title>"],
      ["/timezone/...", 404, '{"error":"unknown location"}'],
      ["/timezone/..x", 404, '{"error":"unknown location"}'],
      ["/timezone.TXT", 200, "Europe/London\n"],
      ["/api/timezone/UTC/", 200, '"timezone":"UTC"'],
      ["/api/ip/8.8.8.8.txt", 200, "client_ip: 8.8.8.8"],
      ["/api", 200, '"profile":"worldtimeapi"'], // the WorldTimeAPI profile's index (issue 13)
      ["/api/", 200, '"profile":"worldtimeapi"'], // a trailing slash is fine, as everywhere
      ["/api/health", 404, '{"error":"not found"}'],
      ["/health", 200, '"live":true'],
      ["/timezone/Europe\\London", 200, '"timezone":"Europe/London"'], // within one route's parameter: read as `/`
      ["/TIMEZONE/UTC", 404, "Not found"],
    ];
    for (const [path, status, content] of ok) {
      const r = await send(path);
      expect({ path, status: r.status, has: r.body.includes(content) }).toEqual({ path, status, has: true });
    }
  });
});

describe("one trailing slash, on every route; .txt only where there is a text form", () => {
  test("every row of the route table answers with a trailing slash as without (the service's own paths and the dialects' included)", async () => {
    const samples = ["/sync?t0=1", "/places?q=paris&limit=1", "/health", "/health/live", "/health/ready", "/metrics", "/openapi.json",
      "/timezone/UTC", "/clock?zones=UTC", "/device", "/device.csv", "/v2.1/list-time-zone?key=k&format=json", "/maps/api/timezone/json?location=1,1&timestamp=0",
      "/api/TimeZone/AvailableTimeZones"];
    for (const sample of samples) {
      const [path, query] = sample.split("?");
      const slashed = `${path}/${query === undefined ? "" : `?${query}`}`;
      const [plain, withSlash] = [await send(sample, "GET", "*/*"), await send(slashed, "GET", "*/*")];
      expect({ slashed, status: withSlash.status, type: withSlash.type }).toEqual({ slashed, status: plain.status, type: plain.type });
      expect({ sample, status: plain.status }).toEqual({ sample, status: 200 });
    }
  });
  test("/device.csv has no .txt form: /device.csv.txt is a 404, not CSV", async () => {
    for (const path of ["/device.csv.txt", "/api/device.csv.txt", "/device.csv.TXT"]) {
      const r = await send(path, "GET", "*/*");
      expect({ path, status: r.status, type: r.type }).toEqual({ path, status: 404, type: "application/json; charset=utf-8" });
    }
    expect((await send("/device.txt", "GET", "*/*")).type).toBe("text/plain; charset=utf-8");
  });
});

describe("names fold ASCII letters only", () => {
  test.each([
    "/timezone/Europe/%E2%84%AAiev", "/timezone/europe/%E2%84%AAIEV", "/timezone/Asia/%E2%84%AAathmandu",
    "/api/timezone/Europe/%E2%84%AAiev.txt", "/timezone/America/%E2%84%AAentucky", "/timezone/America/%E2%84%AAentucky/Louisville",
    "/timezone/Europe/Ki%C3%A9v",
  ])("%s: unknown location", async (path) => {
    const r = await send(path, "GET", "*/*");
    expect({ path, status: r.status }).toEqual({ path, status: 404 });
    expect(r.body).toMatch(/^(\{"error":"unknown location"\}|unknown location\n)$/);
  });
  test("ASCII letters still fold", async () => {
    expect((await send("/timezone/europe/KIEV")).body).toContain('"timezone":"Europe/Kiev"');
    expect((await send("/timezone/america/kentucky")).body).toContain('"America/Kentucky/Louisville"');
  });
});
