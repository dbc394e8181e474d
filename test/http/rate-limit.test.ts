// Rate limits: over the quota a 429 in the error shape with consistent Retry-After and
// RateLimit headers; RateLimit and RateLimit-Policy on every answer of a limited route;
// another client unaffected, loopback and the health probes never limited; one limit per
// instance however many workers share it; memory fixed across a million distinct clients.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { RATE_TABLE_BYTES, RATE_TABLE_CAPACITY, RateLimiter } from "../../server/http/limits/rate-limiter.ts";
import { createSharedMemory } from "../../server/process/shared-memory.ts";
import { freePort } from "../support/free-port.ts";
import { startServerProcess } from "../support/server-process.ts";
import { startTestServer } from "../support/test-server.ts";

const policy = (burst: number, window: number) => ({ burst, windowSeconds: window, policy: `"default";q=${burst};w=${window}` });

describe("token buckets", () => {
  test("a burst, then refusal with the wait until the next token; refill over time", () => {
    let now = 1000;
    const limiter = new RateLimiter(policy(3, 60), undefined, () => now);
    expect({ ...limiter.take("203.0.113.5", 1) }).toEqual({ allowed: true, limited: true, remaining: 2, resetSeconds: 20 });
    for (let i = 0; i < 2; i++) expect(limiter.take("203.0.113.5", 1).allowed).toBe(true);
    expect({ ...limiter.take("203.0.113.5", 1) }).toEqual({ allowed: false, limited: true, remaining: 0, resetSeconds: 20 });
    expect(limiter.take("198.51.100.1", 1).allowed).toBe(true); // another client
    now += 20;
    expect(limiter.take("203.0.113.5", 1).allowed).toBe(true);
    expect(limiter.take("203.0.113.5", 1).allowed).toBe(false);
  });
  test("IPv6 clients share a bucket per /64; a null key is never limited; a loopback address as a key is, like other keys (an unidentified client)", () => {
    const limiter = new RateLimiter(policy(1, 60), undefined, () => 0);
    expect(limiter.take("2001:db8:1:2::1", 1).allowed).toBe(true);
    expect(limiter.take("2001:db8:1:2:ffff::9", 1).allowed).toBe(false);
    expect(limiter.take("2001:db8:1:3::1", 1).allowed).toBe(true);
    for (let i = 0; i < 10; i++) expect(limiter.take(null, 1).allowed).toBe(true);
    expect(limiter.take(null, 1).limited).toBe(false);
    // Which peers are exempt is client-address.ts's decision (a null key), never an address's.
    expect(limiter.take("127.0.0.1", 1).allowed).toBe(true);
    expect(limiter.take("127.0.0.1", 1).allowed).toBe(false);
    expect(limiter.take("::1", 1).allowed).toBe(true);
    expect(limiter.take("::1", 1).allowed).toBe(false);
    expect(limiter.take("unidentified via 127.0.0.1", 1).allowed).toBe(true);
    expect(limiter.take("unidentified via 127.0.0.1", 1).allowed).toBe(false);
    expect(limiter.take("unidentified via 10.0.0.7", 1).allowed).toBe(true);
  });
  test("weighted: a request is admitted while a token is left and charged its whole cost, the debt paid by waiting", () => {
    let now = 0;
    const limiter = new RateLimiter(policy(120, 60), undefined, () => now); // 2 tokens a second
    expect({ ...limiter.take("203.0.113.9", 1) }).toMatchObject({ allowed: true, remaining: 119 });
    expect({ ...limiter.charge("203.0.113.9", 100) }).toMatchObject({ allowed: true, remaining: 19 });
    expect(limiter.take("203.0.113.9", 1).allowed).toBe(true);
    expect({ ...limiter.charge("203.0.113.9", 100) }).toEqual({ allowed: true, limited: true, remaining: 0, resetSeconds: 42 }); // -82 tokens: 41.5 s to one
    expect({ ...limiter.take("203.0.113.9", 1) }).toEqual({ allowed: false, limited: true, remaining: 0, resetSeconds: 42 });
    now = 40;
    expect(limiter.take("203.0.113.9", 1).allowed).toBe(false); // a refusal costs nothing, and -2 is still debt
    now = 41.5;
    expect(limiter.take("203.0.113.9", 1).allowed).toBe(true);
    expect(limiter.take("203.0.113.9", 1).allowed).toBe(false);
    // Sustained, whatever the costs: at most burst + refill, plus one answer's overshoot.
    let charged = 0;
    for (now = 100; now < 400; now += 0.01) {
      if (limiter.take("198.51.100.44", 1).allowed) {
        limiter.charge("198.51.100.44", 19);
        charged += 20;
      }
    }
    expect(charged).toBeLessThanOrEqual(120 + 300 * 2 + 20);
    expect(charged).toBeGreaterThanOrEqual(120 + 300 * 2 - 20);
  });
  test("a spray of fresh /64s does not evict throttled clients: new clients take the buckets closest to full (F8)", () => {
    let now = 0;
    const limiter = new RateLimiter(policy(120, 60), undefined, () => now);
    const throttled = Array.from({ length: 20 }, (_, i) => `2001:db8:aaaa:${i.toString(16)}::1`);
    for (const client of throttled) {
      while (limiter.take(client, 1).allowed);
    }
    // 1.6 times the table's capacity of distinct /64s, one request each, within a second (as through a trusted proxy).
    for (let i = 0; i < RATE_TABLE_CAPACITY * 1.6; i++) {
      now = i / (RATE_TABLE_CAPACITY * 1.6);
      limiter.take(`2001:db8:${(i >>> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`, 1);
    }
    now = 1; // two tokens refilled, so each still has fewer than one... after 2 more requests
    expect(throttled.filter((client) => limiter.take(client, 1).allowed && limiter.take(client, 1).allowed && !limiter.take(client, 1).allowed).length).toBe(20);
  }, 60_000);
  test("two limiters on one memory are one limit", () => {
    const memory = new ArrayBuffer(RATE_TABLE_BYTES);
    const a = new RateLimiter(policy(4, 60), memory, () => 5);
    const b = new RateLimiter(policy(4, 60), memory, () => 5);
    const allowed = [a, b, a, b, b, a].map((l) => l.take("198.51.100.7", 1).allowed);
    expect(allowed).toEqual([true, true, true, true, false, false]);
  });
  test("three processes on shared memory, racing for one client's tokens: exactly the burst is allowed", async () => {
    const { fd } = createSharedMemory(RATE_TABLE_BYTES);
    const taker = join(import.meta.dir, "..", "support", "rate-table-taker.ts");
    // A window of 10^7 s: no token is refilled while they race; 3 x 100,000 attempts for 150,000 tokens.
    const children = [0, 1, 2].map(() => Bun.spawn(["bun", taker, "150000", "10000000", "198.51.100.9", "100000"], { stdio: ["ignore", "pipe", "inherit", fd] }));
    const counts = await Promise.all(children.map(async (c) => Number((await new Response(c.stdout).text()).trim())));
    console.log(`tokens taken by each process: ${counts.join(", ")}`);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(150_000);
  }, 60_000);
  test("a process killed while holding a lock costs a wait, never a deadlock", async () => {
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const memory = new ArrayBuffer(RATE_TABLE_BYTES);
    const locks = new Int32Array(memory, 16 * 4, 1 << 15);
    locks.fill(dead.pid); // every group "held" by a process that is gone
    const limiter = new RateLimiter(policy(2, 60), memory, () => 0);
    expect(limiter.take("203.0.113.1", 1).allowed).toBe(true);
    expect(limiter.take("2001:db8::1", 1).allowed).toBe(true);
  });
  test("memory is fixed across 10^6 distinct clients, and a new client still gets its whole burst", () => {
    const limiter = new RateLimiter(policy(10, 1), undefined, () => 0);
    Bun.gc(true);
    const heap = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1_000_000; i++) limiter.take(`${10 + (i >>> 16)}.${(i >>> 8) & 255}.${i & 255}.1`, 1);
    Bun.gc(true);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(16 * 1024 * 1024);
    expect(1_000_000).toBeGreaterThan(RATE_TABLE_CAPACITY); // the table did overflow
    for (let i = 0; i < 10; i++) expect(limiter.take("203.0.113.200", 1).allowed).toBe(true);
    expect(limiter.take("203.0.113.200", 1).allowed).toBe(false);
  }, 60_000);
});

describe("over HTTP", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Clients are told apart through a trusted proxy (this test's own loopback requests).
    server = await startTestServer({ RATE_LIMIT: "5/60s", TRUST_PROXY: "loopback" });
  }, 60_000);
  afterAll(() => server?.stop());

  const from = (client: string, path = "/timezone/UTC") => fetch(`${server.url}${path}`, { headers: { "X-Forwarded-For": client } });

  test("over quota: 429 in the error shape with Retry-After and RateLimit headers; another client unaffected", async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await from("203.0.113.77"));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Every answer of a limited route says the policy and what is left.
    expect(answers.map((r) => r.headers.get("ratelimit-policy"))).toEqual(Array(5).fill('"default";q=5;w=60'));
    expect(answers.map((r) => /^"default";r=(\d+);t=(\d+)$/.exec(r.headers.get("ratelimit") ?? "")?.[1])).toEqual(["4", "3", "2", "1", "0"]);
    const refused = await from("203.0.113.77");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(12);
    expect(refused.headers.get("ratelimit-policy")).toBe('"default";q=5;w=60');
    expect(refused.headers.get("ratelimit")).toBe(`"default";r=0;t=${retryAfter}`);
    expect(await refused.json()).toEqual({ error: "too many requests: the limit is 5 per 60 seconds per client" });
    const txt = await from("203.0.113.77", "/timezone/UTC.txt");
    expect(txt.status).toBe(429);
    expect(await txt.text()).toBe("too many requests: the limit is 5 per 60 seconds per client\n");
    const other = await from("198.51.100.20", "/openapi.json");
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit")).toMatch(/^"default";r=4;t=\d+$/);
  });
  test("loopback itself is never limited, and the health probes never are", async () => {
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/timezone/UTC`)).status).toBe(200);
    for (const path of ["/health", "/health/live", "/health/ready"]) {
      for (let i = 0; i < 10; i++) {
        const r = await from("203.0.113.77", path);
        expect(r.status).toBe(200);
        expect(r.headers.get("ratelimit")).toBeNull();
      }
    }
    // ...and they count as health, not as the site (whose one answer here was /openapi.json).
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('zonetime_requests_total{route="health",status="200"} 30\n');
    expect(metrics).toContain('zonetime_requests_total{route="site",status="200"} 1\n');
  });
});

test("WORKERS=2 RATE_LIMIT=10/60s: 40 requests from one client through the trusted proxy, spread over both workers, allow exactly 10", async () => {
  const service = await startServerProcess({ PORT: String(await freePort()), WORKERS: "2", RATE_LIMIT: "10/60s", TRUST_PROXY: "loopback" });
  try {
    // Fresh connections, so that the kernel spreads them over both workers.
    const get = (path: string, client: string) => fetch(`${service.url}${path}`, { keepalive: false, headers: { Connection: "close", "X-Forwarded-For": client } });
    const workers = new Set<string>();
    // The second worker may still be starting: wait until both answer (/health is not limited).
    for (const deadline = Date.now() + 20_000; workers.size < 2 && Date.now() < deadline;) {
      workers.add(((await (await get("/health", "192.0.2.1")).json()) as { worker: string }).worker);
    }
    expect(workers.size).toBe(2);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await get("/timezone/UTC", "203.0.113.50")).status);
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(30);
  } finally {
    await service.stop();
  }
}, 60_000);
