// GET /sync?t0=: NTP's on-wire timestamps over HTTP. t0 echoed byte for byte (or null), t1
// and t2 unix milliseconds with three fraction digits from the serving clock, t1 <= t2,
// the same values in Server-Timing, never stored, readable cross-origin by Resource
// Timing; a bad t0 is a 400; a diverged serving clock answers 503, never a wrong time;
// limited exactly as a time object is.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { realtimeClock, type Clock } from "../../server/core/clock.ts";
import { startTestServer, testHandler } from "../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let limited: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: "off" });
  limited = await startTestServer({ RATE_LIMIT: "6/600s", TRUST_PROXY: "loopback" });
}, 120_000);
afterAll(() => {
  server?.stop();
  limited?.stop();
});

const BODY = /^\{"t0":([^,]+),"t1":(\d+\.\d{3}),"t2":(\d+\.\d{3})\}$/;

describe("the timestamps", () => {
  test("t0 is echoed exactly as sent, in every form the contract allows; absent, it is null", async () => {
    for (const t0 of ["0", "7", "1795219200123", "1795219200123.4", "1795219200123.45", "1795219200123.456", "1795219200123.400", "1795219200123.000", "253402300799999.999"]) {
      const body = await (await fetch(`${server.url}/sync?t0=${t0}`)).text();
      expect(BODY.exec(body)?.[1]).toBe(t0);
      expect(JSON.parse(body).t0).toBe(Number(t0));
    }
    const body = await (await fetch(`${server.url}/sync`)).text();
    expect(BODY.exec(body)?.[1]).toBe("null");
  });

  test("t1 <= t2, both the service's clock in unix ms with microseconds, between the client's send and receive", async () => {
    for (let i = 0; i < 50; i++) {
      const sent = Date.now();
      const response = await fetch(`${server.url}/sync?t0=${sent}`);
      const received = Date.now();
      const [, , t1, t2] = BODY.exec(await response.text())!;
      expect(Number(t1)).toBeLessThanOrEqual(Number(t2));
      // Same machine, same system clock: the server's readings fall inside the round trip (to Date.now()'s millisecond).
      expect(Number(t1)).toBeGreaterThanOrEqual(sent);
      expect(Number(t2)).toBeLessThan(received + 1);
    }
  });

  test("headers: no-store, Timing-Allow-Origin, Server-Timing with the body's t1 and t2, CORS exposing it", async () => {
    const response = await fetch(`${server.url}/sync?t0=1795219200123.456`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("timing-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("Server-Timing");
    const [, , t1, t2] = BODY.exec(await response.text())!;
    expect(response.headers.get("server-timing")).toBe(`t1;dur=${t1}, t2;dur=${t2}`);
  });

  test("the smallest answer: three numbers, under 80 bytes, smaller than any time object's", async () => {
    const sync = await (await fetch(`${server.url}/sync?t0=1795219200123.456`)).text();
    const utc = await (await fetch(`${server.url}/timezone/UTC`)).text();
    expect(Object.keys(JSON.parse(sync))).toEqual(["t0", "t1", "t2"]);
    expect(sync.length).toBeLessThan(80);
    expect(sync.length).toBeLessThan(utc.length / 3);
  });

  test("HEAD: the headers alone; other methods 405; /api/sync and /sync.txt do not exist", async () => {
    const head = await fetch(`${server.url}/sync`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("server-timing")).toMatch(/^t1;dur=\d+\.\d{3}, t2;dur=\d+\.\d{3}$/);
    expect((await fetch(`${server.url}/sync`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${server.url}/api/sync`)).status).toBe(404);
    expect((await fetch(`${server.url}/sync.txt`)).status).toBe(404);
  });
});

describe("a bad t0 is a 400 in the one error shape", () => {
  const bad = ["abc", "1e400", "1e3", "-5", "-0", "", "01", "1.2345", "1.", ".5", "NaN", "Infinity", "0x10", "+5", " 1", "1%20", "%ZZ",
    "1795219200123.456,1", "9".repeat(16), "1".repeat(10 * 1024)];
  for (const t0 of bad) {
    test(JSON.stringify(t0.length > 20 ? `${t0.slice(0, 8)}... (${t0.length} chars)` : t0), async () => {
      const response = await fetch(`${server.url}/sync?t0=${t0}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "invalid t0: your send time in unix milliseconds with up to three fraction digits, such as 1795219200123.456" });
    });
  }
});

describe("the clock behind it", () => {
  test("a serving clock that left the system clock: /sync answers 503 (as /health does), never a wrong time; back in step, 200", async () => {
    let shift = 0;
    const shifted: Clock = () => {
      const t = realtimeClock();
      return { seconds: t.seconds + shift, micros: t.micros };
    };
    const handle = await testHandler(shifted);
    const ask = (path: string) => handle(new Request(`http://zonetime.test${path}`));
    expect(ask("/sync?t0=1").status).toBe(200);
    shift = 2; // two seconds ahead: beyond /health's 50 ms bound
    const health = ask("/health");
    expect(health.status).toBe(503);
    expect(((await health.json()) as { status: string }).status).toBe("clock_diverged");
    const sync = ask("/sync?t0=1");
    expect(sync.status).toBe(503);
    const body = await sync.text();
    expect(JSON.parse(body)).toEqual({ error: "clock diverged: this instance's clock disagrees with the system clock (see /health); ask again or elsewhere" });
    expect(body).not.toContain('"t1"');
    shift = 0;
    expect(ask("/sync").status).toBe(200);
    expect(ask("/health").status).toBe(200);
  });

  test("t1 and t2 are the serving clock's readings, to the microsecond", async () => {
    // Date.now()'s time with 456 microseconds: inside the 50 ms check, and recognisable in the answer.
    const handle = await testHandler(() => {
      const now = Date.now();
      return { seconds: Math.floor(now / 1000), micros: (now % 1000) * 1000 + 456 };
    });
    const [, , t1, t2] = BODY.exec(await handle(new Request("http://zonetime.test/sync")).text())!;
    expect(t1!.slice(-3)).toBe("456");
    expect(t2!.slice(-3)).toBe("456");
  });
});

describe("rate limit", () => {
  test("a /sync costs what a time object costs: one request of the same budget", async () => {
    const client = { "X-Forwarded-For": "203.0.113.31" };
    const remaining = (r: Response) => Number(/;r=(\d+);/.exec(r.headers.get("ratelimit") ?? "")?.[1]);
    expect(remaining(await fetch(`${limited.url}/timezone/UTC`, { headers: client }))).toBe(5);
    expect(remaining(await fetch(`${limited.url}/sync`, { headers: client }))).toBe(4);
    expect(remaining(await fetch(`${limited.url}/timezone/UTC`, { headers: client }))).toBe(3);
    for (let i = 0; i < 3; i++) expect((await fetch(`${limited.url}/sync`, { headers: client })).status).toBe(200);
    const refused = await fetch(`${limited.url}/sync`, { headers: client });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await fetch(`${limited.url}/timezone/UTC`, { headers: client })).status).toBe(429);
  });
});
