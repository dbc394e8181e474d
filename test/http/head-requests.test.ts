// HEAD answers with exactly the headers GET sends, Content-Length (the GET body's length)
// and Date included, and no body: every route, errors, the website's files and its 404
// page, /health and /metrics (RFC 9110 section 9.3.2).

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startServer, type Service } from "../../server/process/service.ts";
import { testConfig, testSiteDir } from "../support/test-server.ts";
import { rawRequest } from "../support/raw-http.ts";

let service: Service;
let siteDir: string;
beforeAll(async () => {
  siteDir = await testSiteDir();
  service = await startServer(await testConfig({ SITE_DIR: siteDir, RATE_LIMIT: "off" }), { sharePort: false });
}, 120_000);
afterAll(() => service?.server.stop(true));

interface Raw { status: string; headers: Map<string, string>; body: string }

/** The exact bytes: fetch() would hide a missing Content-Length or a body sent to HEAD. */
async function send(method: string, path: string, accept: string): Promise<Raw> {
  const text = await rawRequest(service.server.port!, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
  const end = text.indexOf("\r\n\r\n");
  const [status, ...lines] = text.slice(0, end).split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    expect(headers.has(name)).toBe(false); // no header twice
    headers.set(name, line.slice(colon + 1).trim());
  }
  return { status: status!, headers, body: text.slice(end + 4) };
}

// Bodies that change between two requests (uptime, counters) are compared by their headers only.
const VARYING = new Set(["/health", "/metrics"]);

test("HEAD carries GET's headers, Content-Length and Date, and no body, on every kind of answer", async () => {
  const asset = readdirSync(join(siteDir, "_astro"))[0]!;
  const cases: [string, string][] = [
    ["/timezone/Europe/London?at=1700000000", "*/*"],
    ["/api/timezone/America/Argentina/Salta.txt?at=0", "*/*"],
    ["/timezone", "*/*"],
    ["/timezone/America/Argentina", "*/*"],
    ["/timezone/Nowhere/City", "*/*"],
    ["/timezone/UTC?at=yesterday", "*/*"],
    ["/ip/8.8.8.8?at=0", "*/*"],
    ["/ip/999.1.1.1", "*/*"],
    ["/api/no/such/path", "*/*"],
    ["/health", "*/*"],
    ["/health/live", "*/*"],
    ["/health/ready", "*/*"],
    ["/metrics", "*/*"],
    ["/openapi.json", "*/*"],
    ["/", "text/html"],
    ["/docs/", "text/html"],
    [`/_astro/${asset}`, "*/*"],
    ["/favicon.svg", "*/*"],
    ["/no/such/page", "text/html"],
    // Issue 17, F5: these answered HEAD with Content-Length: 0 and no Date.
    ["/timezone/America/New_York/transitions?from=2027-01-01T00:00:00Z&to=2028-01-01T00:00:00Z", "*/*"],
    ["/api/timezone/Europe/London/info.txt?at=1700000000", "*/*"],
    ["/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London", "*/*"],
    ["/api", "*/*"],
    ["/api.txt", "*/*"],
    ["/coordinates/38.7503,85.9829?at=1700000000", "*/*"],
  ];
  for (const [path, accept] of cases) {
    const get = await send("GET", path, accept);
    const head = await send("HEAD", path, accept);
    const where = `HEAD ${path}`;
    expect({ where, status: head.status }).toEqual({ where, status: get.status });
    expect({ where, body: head.body }).toEqual({ where, body: "" });
    expect({ where, names: [...head.headers.keys()].sort() }).toEqual({ where, names: [...get.headers.keys()].sort() });
    expect({ where, date: head.headers.get("date") }).toEqual({ where, date: expect.stringMatching(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/) });
    const length = Number(head.headers.get("content-length"));
    expect({ where, length: length > 0 }).toEqual({ where, length: true });
    if (!VARYING.has(path)) {
      expect({ where, length }).toEqual({ where, length: Buffer.byteLength(get.body, "latin1") });
      for (const [name, value] of get.headers) {
        if (name !== "date") expect({ where, name, value: head.headers.get(name) }).toEqual({ where, name, value });
      }
    }
  }
}, 60_000);
