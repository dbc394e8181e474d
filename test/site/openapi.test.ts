// The OpenAPI document against the real service: real responses of every endpoint
// validate against the documented schemas, every documented status is produced by some
// request, and the document served at /openapi.json is the one in the repo.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realtimeClock } from "../../server/core/clock.ts";
import { ClockCheck } from "../../server/ops/clock-check.ts";
import { startServer, type Service } from "../../server/process/service.ts";
import { validate } from "../support/json-schema.ts";
import { ROOT, testConfig } from "../support/test-server.ts";

const openapi = JSON.parse(readFileSync(join(ROOT, "server", "http", "openapi.json"), "utf8"));
let service: Service;
let base: string;

beforeAll(async () => {
  service = await startServer(await testConfig({ TRUST_PROXY: "loopback", RATE_LIMIT: "3/60s" }), { reusePort: false });
  base = `http://127.0.0.1:${service.server.port}`;
}, 120_000);
afterAll(() => service?.server.stop(true));

/** One request per documented (path, status), with the headers that produce it. */
const REQUESTS: { path: string; status: string; url: string; headers?: Record<string, string>; draining?: boolean; diverged?: boolean }[] = [
  { path: "/timezone{format}", status: "200", url: "/timezone" },
  { path: "/timezone{format}", status: "304", url: "/timezone", headers: { "If-None-Match": "*" } },
  { path: "/timezone{format}", status: "429", url: "/timezone", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}{format}", status: "200", url: "/timezone/Europe/London" },
  { path: "/timezone/{area}{format}", status: "200", url: "/timezone/America/Argentina" },
  { path: "/timezone/{area}{format}", status: "400", url: "/timezone/UTC?at=noon" },
  { path: "/timezone/{area}{format}", status: "404", url: "/timezone/Nowhere/City" },
  { path: "/timezone/{area}{format}", status: "429", url: "/timezone/UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/ip{format}", status: "200", url: "/ip", headers: { "X-Forwarded-For": "8.8.8.8" } },
  { path: "/ip{format}", status: "400", url: "/ip?at=noon", headers: { "X-Forwarded-For": "8.8.8.8" } },
  { path: "/ip{format}", status: "404", url: "/ip" },
  { path: "/ip{format}", status: "429", url: "/ip", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/ip/{address}{format}", status: "200", url: "/ip/2001:4860:4860::8888" },
  { path: "/ip/{address}{format}", status: "400", url: "/ip/1.2.3" },
  { path: "/ip/{address}{format}", status: "404", url: "/ip/192.168.1.1" },
  { path: "/ip/{address}{format}", status: "429", url: "/ip/8.8.8.8", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/transitions{format}", status: "200", url: "/timezone/Europe/Dublin/transitions?from=2026-01-01T00:00:00Z" },
  { path: "/timezone/{area}/transitions{format}", status: "304", url: "/timezone/Europe/Dublin/transitions?from=2026-01-01T00:00:00Z", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/transitions{format}", status: "400", url: "/timezone/UTC/transitions?from=noon" },
  { path: "/timezone/{area}/transitions{format}", status: "404", url: "/timezone/Nowhere/City/transitions" },
  { path: "/timezone/{area}/transitions{format}", status: "429", url: "/timezone/UTC/transitions", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/info{format}", status: "200", url: "/timezone/US/Eastern/info" },
  { path: "/timezone/{area}/info{format}", status: "200", url: "/timezone/UTC/info" },
  { path: "/timezone/{area}/info{format}", status: "304", url: "/timezone/UTC/info", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/info{format}", status: "400", url: "/timezone/UTC/info?at=noon" },
  { path: "/timezone/{area}/info{format}", status: "404", url: "/timezone/Nowhere/City/info" },
  { path: "/timezone/{area}/info{format}", status: "429", url: "/timezone/UTC/info", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/device{format}", status: "200", url: "/timezone/America/Havana/device?at=2026-11-23T00:00:00Z" },
  { path: "/timezone/{area}/device{format}", status: "200", url: "/timezone/UTC/device" },
  { path: "/timezone/{area}/device{format}", status: "304", url: "/timezone/UTC/device", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/device{format}", status: "400", url: "/timezone/UTC/device?at=noon" },
  { path: "/timezone/{area}/device{format}", status: "404", url: "/timezone/Nowhere/City/device" },
  { path: "/timezone/{area}/device{format}", status: "429", url: "/timezone/UTC/device", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/device{format}", status: "200", url: "/device" },
  { path: "/device{format}", status: "304", url: "/device", headers: { "If-None-Match": "*" } },
  { path: "/device{format}", status: "400", url: "/device?at=noon" },
  { path: "/device{format}", status: "429", url: "/device", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/device.csv", status: "200", url: "/device.csv" },
  { path: "/device.csv", status: "304", url: "/device.csv", headers: { "If-None-Match": "*" } },
  { path: "/device.csv", status: "400", url: "/device.csv?at=noon" },
  { path: "/device.csv", status: "429", url: "/device.csv", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/convert{format}", status: "200", url: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/Dublin" },
  { path: "/convert{format}", status: "304", url: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=UTC", headers: { "If-None-Match": "*" } },
  { path: "/convert{format}", status: "400", url: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=UTC&disambiguation=reject" },
  { path: "/convert{format}", status: "404", url: "/convert?time=2026-03-08T02:30:00&from=Nowhere/City&to=UTC" },
  { path: "/convert{format}", status: "429", url: "/convert?time=2026-03-08T02:30:00&from=UTC&to=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/{area}/{location}{format}", status: "200", url: "/api/Europe/London" },
  { path: "/api/{area}/{location}{format}", status: "400", url: "/api/Europe/London?at=noon" },
  { path: "/api/{area}/{location}{format}", status: "404", url: "/api/Nowhere/City" },
  { path: "/api/{area}/{location}{format}", status: "429", url: "/api/Europe/London", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api", status: "200", url: "/api" },
  { path: "/api", status: "429", url: "/api", headers: { "X-Forwarded-For": "203.0.113.1" } },
  // A place the data gives two zones, so the documented X-Other-Timezones is there too.
  { path: "/coordinates/{point}{format}", status: "200", url: "/coordinates/38.7503,85.9829" },
  { path: "/coordinates/{point}{format}", status: "400", url: "/coordinates/91,0" },
  { path: "/coordinates/{point}{format}", status: "429", url: "/coordinates/51.5074,-0.1278", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/clock{format}", status: "200", url: "/clock?zones=Europe/Dublin,US/Eastern,Asia/Kathmandu" },
  { path: "/clock{format}", status: "400", url: "/clock?zones=UTC&at=noon" },
  { path: "/clock{format}", status: "404", url: "/clock?zones=UTC,Nowhere/City" },
  { path: "/clock{format}", status: "429", url: "/clock?zones=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/sync", status: "200", url: "/sync?t0=1795219200123.456" },
  { path: "/sync", status: "400", url: "/sync?t0=1e400" },
  { path: "/sync", status: "429", url: "/sync", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/sync", status: "503", url: "/sync", diverged: true },
  { path: "/health", status: "200", url: "/health" },
  { path: "/health", status: "503", url: "/health", draining: true },
  { path: "/metrics", status: "200", url: "/metrics" },
];

test("every documented status is produced, and every response fits its schema", async () => {
  // Use up the rate-limited client's burst (3) so that its next requests are refused.
  for (let i = 0; i < 3; i++) await fetch(`${base}/timezone/UTC`, { headers: { "X-Forwarded-For": "203.0.113.1" } });
  const problems: string[] = [];
  const produced = new Set<string>();
  for (const r of REQUESTS) {
    service.state.draining = r.draining ?? false;
    const check = service.state.clockCheck;
    // A serving clock two seconds off the system clock: what /health calls clock_diverged.
    if (r.diverged) service.state.clockCheck = new ClockCheck(() => ({ ...realtimeClock(), seconds: realtimeClock().seconds + 2 }), () => {});
    const response = await fetch(`${base}${r.url}`, { headers: r.headers });
    service.state.draining = false;
    service.state.clockCheck = check;
    if (String(response.status) !== r.status) {
      problems.push(`${r.url}: ${response.status}, expected ${r.status}`);
      continue;
    }
    produced.add(`${r.path} ${r.status}`);
    const documented = openapi.paths[r.path].get.responses[r.status];
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!;
    const media = documented.content?.[type];
    if (documented.content && !media) problems.push(`${r.url}: ${type} not documented for ${r.status}`);
    if (media?.schema && type === "application/json") {
      problems.push(...validate(await response.json(), media.schema, openapi, r.url));
    }
    for (const header of Object.keys(documented.headers ?? {})) {
      if (!response.headers.has(header)) problems.push(`${r.url}: documented header ${header} missing`);
    }
  }
  expect(problems).toEqual([]);
  const documentedStatuses = Object.entries(openapi.paths).flatMap(([path, item]: [string, any]) =>
    Object.keys(item.get.responses).map((status) => `${path} ${status}`));
  expect(documentedStatuses.filter((s) => !produced.has(s))).toEqual([]);
}, 60_000);

test("WorldTimeAPI-profile answers fit the same schema", async () => {
  const body = await (await fetch(`${base}/api/timezone/Europe/Dublin?at=2026-01-15T12:00:00Z`)).json();
  expect(validate(body, { $ref: "#/components/schemas/TimeObject" }, openapi)).toEqual([]);
});

test("/openapi.json serves the repository's document", async () => {
  const r = await fetch(`${base}/openapi.json`);
  expect(r.status).toBe(200);
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  expect(await r.json()).toEqual(openapi);
});
