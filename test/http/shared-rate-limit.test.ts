// RATE_LIMIT_STORE: replicas share one bucket per client through a real redis-server.
// The script answers as the local limiter does; two instances (directly, and through
// nginx with the repository's configuration) allow a client exactly the limit, not twice
// it; Redis killed or frozen costs no request, is counted and logged once, and the shared
// limit holds again once Redis is back; the keys expire when their buckets are full again.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { freePort } from "../support/free-port.ts";
import { requireTool } from "../support/require-tool.ts";
import { connect } from "node:net";
import { RateLimiter, type RateLimitConfig } from "../../server/http/limits/rate-limiter.ts";
import { SharedRateLimiter, type StoreCounters } from "../../server/http/limits/shared-rate-limiter.ts";
import { ConfigError, readConfig } from "../../server/process/config.ts";
import { documentedDeployment, NGINX_CONF, startNginx } from "../support/nginx.ts";
import { ROOT } from "../support/test-server.ts";
import { startRedis, type RedisServer } from "../support/redis-server.ts";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";
import { testDataDir } from "../support/test-server.ts";

const policy = (burst: number, window: number): RateLimitConfig => ({ burst, windowSeconds: window, policy: `"default";q=${burst};w=${window}` });

let redis: RedisServer;
const stops: (() => unknown)[] = [];
beforeAll(async () => {
  redis = await startRedis();
  // The instances' data, built here and not inside the first test that starts one: on a
  // busy machine the build alone took most of that test's 60 s, and a test that times out
  // has its dangling processes killed, this file's redis-server with them (every later
  // test then failed with "Connection closed").
  await testDataDir();
}, 300_000);
afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  redis?.stop();
}, 30_000);

async function connected(limiter: SharedRateLimiter): Promise<void> {
  for (const deadline = Date.now() + 10_000; limiter.report().state !== "up"; await Bun.sleep(10)) {
    if (Date.now() > deadline) throw new Error(`store not up: ${JSON.stringify(limiter.report())}`);
  }
}

function shared(config: RateLimitConfig, url = redis.url): { limiter: SharedRateLimiter; counters: StoreCounters } {
  const counters = { fallbacks: 0, outages: 0, connectAttempts: 0 };
  const limiter = new SharedRateLimiter(config, url, new RateLimiter(config), counters, 100);
  stops.push(() => limiter.close());
  return { limiter, counters };
}

describe("the script", () => {
  test("decides as the instance's limiter does: the same allowed, remaining and reset for the same takes and charges", async () => {
    const { limiter, counters } = shared(policy(5, 100));
    await connected(limiter);
    const local = new RateLimiter(policy(5, 100), undefined, () => 1000);
    // Takes of cost 1 and 2, charges of the rest of a costly answer (debt included), refusals.
    const steps: [string, number][] = [["take", 1], ["take", 2], ["charge", 1], ["take", 1], ["take", 1], ["charge", 3], ["take", 1], ["take", 1]];
    for (const client of ["203.0.113.5", "2001:db8:7:8::1", "unidentified via 10.0.0.7"]) {
      for (const [i, [op, cost]] of steps.entries()) {
        const call = (l: { take: typeof local.take; charge: typeof local.charge }) => ({ i, op, ...(op === "take" ? l.take(client, cost) : l.charge(client, cost)) });
        expect(call(limiter)).toEqual(call(local));
      }
    }
    // The same /64 is one client; a null key (a loopback socket peer) is never limited and never asked about.
    expect(limiter.take("2001:db8:7:8:ffff::2", 1).allowed).toBe(false);
    expect(limiter.take(null, 1).limited).toBe(false);
    expect(counters.fallbacks).toBe(0);
    expect(await redis.cli("DBSIZE")).toBe("3");
  });

  test("weighted: admitted while a token is left and charged the whole cost (into debt); then refused until it is paid", async () => {
    const { limiter } = shared(policy(10, 60));
    await connected(limiter);
    expect({ ...limiter.take("198.51.100.20", 4) }).toMatchObject({ allowed: true, remaining: 6 });
    expect({ ...limiter.take("198.51.100.20", 7) }).toMatchObject({ allowed: true, remaining: 0 });
    expect({ ...limiter.take("198.51.100.20", 1) }).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 12 }); // 1 token of debt + 1: 2 x 6 s
    expect({ ...limiter.charge("198.51.100.20", 1) }).toMatchObject({ allowed: true, remaining: 0 }); // a charge never refuses
  });

  test("/db in the URL selects that database", async () => {
    const { limiter } = shared(policy(3, 60), `${redis.url}/3`);
    await connected(limiter);
    limiter.take("198.51.100.33", 1);
    expect(await redis.cli("-n", "3", "--scan", "--pattern", "zonetime:rate:3/60:*")).not.toBe("");
    expect(await redis.cli("-n", "0", "--scan", "--pattern", "zonetime:rate:3/60:*")).toBe("");
  });

  test("a bucket's key expires when the bucket is full again, within one window: idle clients cost Redis nothing", async () => {
    const { limiter } = shared(policy(2, 1));
    await connected(limiter);
    for (let c = 0; c < 50; c++) limiter.take(`198.18.0.${c}`, 1);
    const keys = (await redis.cli("--scan", "--pattern", "zonetime:rate:2/1:*")).split("\n");
    expect(keys.length).toBe(50);
    const ttl = Number(await redis.cli("PTTL", keys[0]!));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1000);
    await Bun.sleep(1100);
    expect(await redis.cli("--scan", "--pattern", "zonetime:rate:2/1:*")).toBe("");
    expect(limiter.take("198.18.0.1", 1).remaining).toBe(1); // a full bucket again
  });
});

/** An address of this machine other than loopback, so that a client is limited without a proxy; null when it has none. */
function externalAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  return null;
}

// The exact counts need Redis to decide every request: on a machine this busy (2 cores
// shared by many test processes) an answer can miss the default 5 ms, so these instances
// wait up to 100 ms. The tests of Redis killed or frozen run with the default.
const PATIENT = { RATE_LIMIT_STORE_TIMEOUT_MS: "100" };

async function instance(env: Record<string, string>): Promise<ServerProcess> {
  const s = await startServerProcess({ HOST: "0.0.0.0", RATE_LIMIT: "10/60s", TRUST_PROXY: "loopback", ...env });
  stops.push(() => s.stop());
  return s;
}

/** `count` requests for one client, alternating over `ports`; how many were allowed. */
async function alternate(ports: number[], count: number, client: string): Promise<number> {
  const host = externalAddress();
  let allowed = 0;
  for (let i = 0; i < count; i++) {
    // Without an external address, the client is named by a header from a trusted (loopback) peer.
    const headers: Record<string, string> = host === null ? { "x-forwarded-for": client } : {};
    const r = await fetch(`http://${host ?? "127.0.0.1"}:${ports[i % ports.length]}/timezone/UTC`, { headers });
    expect([200, 429]).toContain(r.status);
    if (r.status === 200) allowed++;
  }
  return allowed;
}

describe("two instances", () => {
  test("RATE_LIMIT=10/60s, one client alternating: 10 of 40 allowed with the store, 20 without", async () => {
    const [a, b] = await Promise.all([instance({ RATE_LIMIT_STORE: redis.url, ...PATIENT }), instance({ RATE_LIMIT_STORE: redis.url, ...PATIENT })]);
    await Promise.all([a, b].map((s) => waitForLog(s.log, "rate_store_connected")));
    const [c, d] = await Promise.all([instance({}), instance({})]);
    const withStore = await alternate([a.port, b.port], 40, "203.0.113.40");
    const without = await alternate([c.port, d.port], 40, "203.0.113.40");
    const fallbacks = await Promise.all([a, b].map(async (s) => /zonetime_rate_store_fallbacks_total (\d+)/.exec(await (await fetch(`${s.url}/metrics`)).text())![1]));
    console.log(`allowed of 40, alternating: ${withStore} with the store (fallbacks ${fallbacks}), ${without} without`);
    expect(withStore).toBe(10);
    expect(without).toBe(20);
  }, 60_000);

  test("docs/deployment.md's deployment, as printed (its redis-server, its replicas' environment, nginx.conf): round-robin, 10 of 40", async () => {
    const deployment = documentedDeployment();
    // The block starts nginx with the very file the test runs (linked from the doc, never pasted).
    expect(deployment.nginxLine).toBe(`nginx -c "$PWD/${relative(ROOT, NGINX_CONF)}"`);
    expect(deployment.replicas.length).toBe(2);
    const own = await startRedis(deployment.redisArgs.filter((_, i, all) => !["--port", "--bind"].includes(all[i]!) && !["--port", "--bind"].includes(all[i - 1]!)));
    stops.push(() => own.stop());
    expect(await own.cli("CONFIG", "GET", "maxmemory-policy")).toContain("volatile-ttl");
    // Each replica as the doc starts it, on a free port, with the exact limit this test counts.
    const [a, b] = await Promise.all(deployment.replicas.map((env) => {
      expect(new URL(env.RATE_LIMIT_STORE!).port).toBe(deployment.redisArgs[deployment.redisArgs.indexOf("--port") + 1]!);
      return startServerProcess({ ...env, PORT: "0", RATE_LIMIT_STORE: own.url, RATE_LIMIT: "10/60s", ...PATIENT }).then((s) => (stops.push(() => s.stop()), s));
    }));
    await Promise.all([a!, b!].map((s) => waitForLog(s.log, "rate_store_connected")));
    const nginx = await startNginx([a!.port, b!.port]);
    stops.push(nginx.stop);
    expect(await alternate([nginx.port], 40, "203.0.113.41")).toBe(10);
    // /metrics is not public through the proxy (the scraper reads each replica directly).
    for (const path of ["/metrics", "/metrics/", "/metrics?x=1"]) {
      const refused = await fetch(`http://127.0.0.1:${nginx.port}${path}`);
      expect({ path, status: refused.status, body: await refused.json() }).toEqual({ path, status: 403, body: { error: expect.stringContaining("not served through the proxy") } });
    }
    expect((await fetch(`http://127.0.0.1:${nginx.port}/health`)).status).toBe(200);
    // Round-robin really spread them: both instances answered.
    for (const s of [a!, b!]) {
      const metrics = await (await fetch(`${s.url}/metrics`)).text();
      expect(Number(/zonetime_requests_total\{route="timezone",status="200"\} (\d+)/.exec(metrics)?.[1] ?? 0)).toBeGreaterThan(0);
    }
  }, 60_000);

  test("Redis killed: every request answered, counted and logged once; restarted: the shared limit holds again", async () => {
    const [a, b] = await Promise.all([instance({ RATE_LIMIT_STORE: redis.url, ...PATIENT }), instance({ RATE_LIMIT_STORE: redis.url, ...PATIENT })]);
    await Promise.all([a, b].map((s) => waitForLog(s.log, "rate_store_connected")));
    await redis.kill9();
    expect(await alternate([a.port, b.port], 40, "203.0.113.42")).toBe(20); // each instance on its own
    for (const s of [a, b]) {
      const health = await (await fetch(`${s.url}/health`)).json() as { ready: boolean; rate_limit_store: { state: string; fallbacks: number } };
      expect(health.ready).toBe(true); // readiness does not depend on the store
      expect(health.rate_limit_store.state).toBe("down");
      const metrics = await (await fetch(`${s.url}/metrics`)).text();
      expect(metrics).toContain("zonetime_rate_store_fallbacks_total 20");
      expect(metrics).toContain("zonetime_rate_store_outages_total 1");
      expect(s.log.filter((l) => l.includes("rate_store_unavailable")).length).toBe(1);
    }
    await redis.restart();
    await Promise.all([a, b].map((s) => waitForLog(s.log, "rate_store_restored", { timeoutMs: 10_000 }).catch(async () => {
      // Restored is logged when Redis next decides: a request makes that happen.
      for (const deadline = Date.now() + 10_000; !s.log.some((l) => l.includes("rate_store_restored")); await Bun.sleep(200)) {
        if (Date.now() > deadline) throw new Error(`not restored:\n${s.log.join("\n")}`);
        await fetch(`${s.url}/timezone/UTC`, { headers: { "x-forwarded-for": "192.0.2.200" } });
      }
    })));
    expect(await alternate([a.port, b.port], 40, "203.0.113.43")).toBe(10);
  }, 60_000);

  test("Redis frozen (SIGSTOP): requests are answered from the instance's limiter, Redis resumed takes over again", async () => {
    const a = await instance({ RATE_LIMIT_STORE: redis.url });
    await waitForLog(a.log, "rate_store_connected");
    redis.child.kill("SIGSTOP");
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await fetch(`${a.url}/timezone/UTC`, { headers: { "x-forwarded-for": "203.0.113.44" } })).status);
      expect(statuses.filter((s) => s === 200).length).toBe(10); // the local limit, decided without Redis
      const health = await (await fetch(`${a.url}/health`)).json() as { rate_limit_store: { state: string } };
      expect(health.rate_limit_store.state).toBe("slow");
      expect(a.log.filter((l) => l.includes("rate_store_unavailable")).length).toBe(1);
    } finally {
      redis.child.kill("SIGCONT");
    }
    for (const deadline = Date.now() + 15_000; !a.log.some((l) => l.includes("rate_store_restored")); await Bun.sleep(100)) {
      if (Date.now() > deadline) throw new Error(`not restored:\n${a.log.join("\n")}`);
      await fetch(`${a.url}/timezone/UTC`, { headers: { "x-forwarded-for": "192.0.2.201" } });
    }
  }, 60_000);

  test("pipelined requests are all answered with the store on (the decision never makes an answer async)", async () => {
    const a = await instance({ RATE_LIMIT_STORE: redis.url });
    await waitForLog(a.log, "rate_store_connected");
    const request = "GET /timezone/UTC HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.45\r\n\r\n";
    const got = await new Promise<string>((resolve) => {
      const socket = connect(a.port, "127.0.0.1", () => socket.write(request.repeat(3)));
      let text = "";
      socket.on("data", (d) => {
        text += d.toString("latin1");
        if ((text.match(/HTTP\/1\.1 200/g) ?? []).length === 3) socket.destroy();
      });
      socket.on("close", () => resolve(text));
      setTimeout(() => socket.destroy(), 5000);
    });
    expect((got.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(3);
  }, 30_000);
});

describe("the store's outages as the operator sees them", () => {
  const frozen = async (a: ServerProcess, client: string) => {
    for (let i = 0; i < 8; i++) await fetch(`${a.url}/timezone/UTC`, { headers: { "x-forwarded-for": client } });
  };
  test("a frozen Redis (SIGSTOP) within 10 s of a brief slowness is logged once it outlasts a backoff", async () => {
    const own = await startRedis();
    stops.push(() => own.stop());
    const a = await instance({ RATE_LIMIT_STORE: own.url });
    await waitForLog(a.log, "rate_store_connected");
    // A brief flap: frozen, noticed, resumed, restored.
    own.child.kill("SIGSTOP");
    await frozen(a, "203.0.113.60");
    own.child.kill("SIGCONT");
    for (const deadline = Date.now() + 15_000; !a.log.some((l) => l.includes("rate_store_restored")); await Bun.sleep(100)) {
      if (Date.now() > deadline) throw new Error(`not restored:\n${a.log.join("\n")}`);
      await fetch(`${a.url}/timezone/UTC`, { headers: { "x-forwarded-for": "192.0.2.202" } });
    }
    // Frozen again at once, for good: past the first backoff (100 ms) and tripping again, it is told.
    own.child.kill("SIGSTOP");
    try {
      await frozen(a, "203.0.113.61");
      await Bun.sleep(300);
      await frozen(a, "203.0.113.61");
      await waitForLog(a.log, "rate_store_unavailable", { count: 2, timeoutMs: 5000 });
    } finally {
      own.child.kill("SIGCONT");
    }
  }, 60_000);

  test("Redis back after a lost connection: /health's outage_since is cleared when it reconnects, with no request needed", async () => {
    const own = await startRedis();
    stops.push(() => own.stop());
    const a = await instance({ RATE_LIMIT_STORE: own.url });
    await waitForLog(a.log, "rate_store_connected");
    await own.kill9();
    await waitForLog(a.log, "rate_store_unavailable");
    const during = await (await fetch(`${a.url}/health`)).json() as { rate_limit_store: { state: string; outage_since: string | null } };
    expect(during.rate_limit_store.outage_since).not.toBeNull();
    await own.restart();
    await waitForLog(a.log, "rate_store_restored", { timeoutMs: 15_000 }); // no limited request sent meanwhile
    const after = await (await fetch(`${a.url}/health`)).json() as { rate_limit_store: { state: string; outage_since: string | null } };
    expect(after.rate_limit_store).toMatchObject({ state: "up", outage_since: null });
  }, 60_000);

  test("a wrong Redis password: the log says why (Redis's own WRONGPASS), never the password", async () => {
    const own = await startRedis();
    stops.push(() => own.stop());
    expect(await own.cli("CONFIG", "SET", "requirepass", "the-right-one")).toBe("OK");
    const url = new URL(own.url);
    url.password = "a-wrong-one";
    const a = await instance({ RATE_LIMIT_STORE: url.href });
    const [line] = await waitForLog(a.log, "rate_store_unavailable", { timeoutMs: 10_000 });
    expect(line).toContain("WRONGPASS");
    expect(a.log.join("\n")).not.toContain("a-wrong-one");
  }, 60_000);
});

describe("rediss://", () => {
  test("TLS to Redis: verified against the CA the process trusts (NODE_EXTRA_CA_CERTS); an unknown certificate is never used", async () => {
    const openssl = requireTool("openssl");
    const dir = mkdtempSync(join(tmpdir(), "zonetime-redis-tls-"));
    const sh = (cmd: string) => {
      const r = Bun.spawnSync(["sh", "-c", cmd], { cwd: dir, stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`${cmd}: ${r.stderr}`);
    };
    sh(`${openssl} req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=zonetime-test-ca`);
    sh(`${openssl} req -newkey rsa:2048 -nodes -keyout redis.key -out redis.csr -subj /CN=localhost`);
    sh(`printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > ext && ${openssl} x509 -req -in redis.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out redis.pem -days 2 -extfile ext`);
    const tlsPort = await freePort();
    const tls = await startRedis(["--tls-port", String(tlsPort), "--tls-cert-file", join(dir, "redis.pem"), "--tls-key-file", join(dir, "redis.key"), "--tls-auth-clients", "no"]);
    stops.push(() => tls.stop());
    const url = `rediss://127.0.0.1:${tlsPort}`;
    const trusting = await instance({ RATE_LIMIT_STORE: url, NODE_EXTRA_CA_CERTS: join(dir, "ca.pem"), ...PATIENT });
    await waitForLog(trusting.log, "rate_store_connected");
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await fetch(`${trusting.url}/timezone/UTC`, { headers: { "x-forwarded-for": "203.0.113.60" } })).status);
    expect(statuses.filter((x) => x === 200).length).toBe(10);
    expect(await tls.cli("--scan", "--pattern", "zonetime:rate:*")).not.toBe(""); // the buckets are in the TLS Redis
    // Without that CA the certificate is refused: the store never comes up, requests are answered all the same.
    const untrusting = await instance({ RATE_LIMIT_STORE: url });
    const r = await fetch(`${untrusting.url}/timezone/UTC`, { headers: { "x-forwarded-for": "203.0.113.61" } });
    expect(r.status).toBe(200);
    const health = await (await fetch(`${untrusting.url}/health`)).json() as { rate_limit_store: { state: string } };
    expect(health.rate_limit_store.state).toBe("connecting");
  }, 60_000);
});

describe("configuration", () => {
  test("redis:// and rediss:// URLs with a port and a database; anything else stops the start, naming the variable, never echoing a password", () => {
    expect(readConfig({ RATE_LIMIT_STORE: "redis://10.0.0.5:6379/2" }).rateLimitStore).toBe("redis://10.0.0.5:6379/2");
    expect(readConfig({ RATE_LIMIT_STORE: "rediss://:secret@redis.internal:6380" }).rateLimitStore).toBe("rediss://:secret@redis.internal:6380");
    expect(readConfig({}).rateLimitStore).toBeNull();
    for (const bad of ["http://x:1", "redis://", "redis://h:1/db", "redis://h:1/2?x=1", "localhost:6379", "redis://:hunter2@h:1/x"]) {
      let error: unknown = null;
      try {
        readConfig({ RATE_LIMIT_STORE: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain("RATE_LIMIT_STORE");
      expect((error as Error).message).not.toContain("hunter2");
    }
    expect(() => readConfig({ RATE_LIMIT_STORE: "redis://h:1", RATE_LIMIT: "off" })).toThrow("needs RATE_LIMIT");
  });
});
