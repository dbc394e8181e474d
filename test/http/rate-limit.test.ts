// Rate limits: over the quota a 429 in the error shape with consistent Retry-After and
// RateLimit headers, another client unaffected, loopback never limited, memory flat
// across a million distinct clients.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GENERATION_SIZE, RateLimiter } from "../../server/http/rate-limiter.ts";
import { startTestServer } from "../support/test-server.ts";

describe("token buckets", () => {
  test("a burst, then refusal with the wait until the next token; refill over time", () => {
    let now = 1000;
    const limiter = new RateLimiter({ burst: 3, windowSeconds: 60, policy: '"default";q=3;w=60' }, () => now);
    for (let i = 0; i < 3; i++) expect(limiter.take("203.0.113.5").allowed).toBe(true);
    expect(limiter.take("203.0.113.5")).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(limiter.take("198.51.100.1").allowed).toBe(true); // another client
    now += 20;
    expect(limiter.take("203.0.113.5").allowed).toBe(true);
    expect(limiter.take("203.0.113.5").allowed).toBe(false);
  });
  test("IPv6 clients share a bucket per /64; loopback is never limited", () => {
    const limiter = new RateLimiter({ burst: 1, windowSeconds: 60, policy: '"default";q=1;w=60' }, () => 0);
    expect(limiter.take("2001:db8:1:2::1").allowed).toBe(true);
    expect(limiter.take("2001:db8:1:2:ffff::9").allowed).toBe(false);
    expect(limiter.take("2001:db8:1:3::1").allowed).toBe(true);
    for (let i = 0; i < 10; i++) expect(limiter.take("127.0.0.1").allowed && limiter.take("::1").allowed).toBe(true);
  });
  test("memory stays flat across 10^6 distinct clients", () => {
    const limiter = new RateLimiter({ burst: 10, windowSeconds: 1, policy: '"default";q=10;w=1' }, () => 0);
    Bun.gc(true);
    const sizes: number[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      limiter.take(`${10 + (i >>> 16)}.${(i >>> 8) & 255}.${i & 255}.1`);
      if (i % 250_000 === 249_999) sizes.push(limiter.size);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * GENERATION_SIZE);
    Bun.gc(true);
    const heap = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1_000_000; i++) limiter.take(`${100 + (i >>> 16)}.${(i >>> 8) & 255}.${i & 255}.2`);
    Bun.gc(true);
    // A second million clients adds no memory: the generations were already full.
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(32 * 1024 * 1024);
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
    for (let i = 0; i < 5; i++) expect((await from("203.0.113.77")).status).toBe(200);
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
    expect((await from("198.51.100.20")).status).toBe(200);
  });
  test("loopback itself is never limited, and /health is never limited", async () => {
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/timezone/UTC`)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await from("203.0.113.77", "/health")).status).toBe(200);
  });
});
