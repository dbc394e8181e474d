// Redis killed under load across three replicas behind nginx (the repository's nginx.conf),
// kept down for 60 s, then started again: no request fails meanwhile (every answer a 200
// or a 429, no connection error), each replica's store state is a gauge in /metrics, its
// attempts to reconnect over the 60 s are counted and bounded by the capped backoff
// (server/http/limits/reconnect-backoff.ts), and once Redis is back the three share one limit
// again. The seconds from Redis's return to the last replica's reconnection are printed,
// not asserted (a timing).

import { afterAll, beforeAll, expect, test } from "bun:test";
import { BACKOFF_MAX_MS } from "../../server/http/limits/reconnect-backoff.ts";
import { startNginx } from "../support/nginx.ts";
import { startRedis, type RedisServer } from "../support/redis-server.ts";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";

const DOWN_SECONDS = 60;
let redis: RedisServer;
let replicas: ServerProcess[] = [];
let nginx: Awaited<ReturnType<typeof startNginx>>;

beforeAll(async () => {
  redis = await startRedis();
  // The exact count of the last step needs Redis to decide every request: 100 ms, not the
  // default 5 ms, on a machine this busy (as test/http/shared-rate-limit.test.ts).
  replicas = await Promise.all([0, 1, 2].map(() => startServerProcess({
    RATE_LIMIT: "10/60s", RATE_LIMIT_STORE: redis.url, RATE_LIMIT_STORE_TIMEOUT_MS: "100", TRUST_PROXY: "loopback",
  })));
  await Promise.all(replicas.map((r) => waitForLog(r.log, "rate_store_connected")));
  nginx = await startNginx(replicas.map((r) => r.port));
}, 240_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  redis?.stop();
});

/** One replica's store gauge and counters, read from its /metrics. */
async function storeMetrics(replica: ServerProcess): Promise<{ states: Record<string, number>; attempts: number; outages: number }> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  const states = Object.fromEntries([...text.matchAll(/^zonetime_rate_store_state\{state="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
  const attempts = /^zonetime_rate_store_connect_attempts_total (\d+)$/m.exec(text);
  const outages = /^zonetime_rate_store_outages_total (\d+)$/m.exec(text);
  if (attempts === null || outages === null) throw new Error(`no store counters in /metrics:\n${text}`);
  return { states, attempts: Number(attempts[1]), outages: Number(outages[1]) };
}

/** Requests through nginx from `loops` clients in turn until stopped; every status and every failure counted. */
function loadThroughNginx(loops: number, stop: () => boolean): Promise<{ statuses: Record<number, number>; failures: string[] }> {
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  const paths = ["/timezone/Europe/London", "/timezone/America/Havana", "/ip/8.8.8.8", "/timezone"];
  const loop = async (n: number) => {
    for (let i = 0; !stop(); i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${nginx.port}${paths[(n + i) % paths.length]}`, { headers: { "x-forwarded-for": `198.51.100.${n}` } });
        await r.arrayBuffer();
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      } catch (error) {
        failures.push(String(error));
      }
      await Bun.sleep(5); // a steady load, not a flood: this runs beside other suites on 2 cores
    }
  };
  return Promise.all(Array.from({ length: loops }, (_, n) => loop(n))).then(() => ({ statuses, failures }));
}

test(`Redis killed under load for ${DOWN_SECONDS} s and restarted: no request fails, reconnect attempts bounded, state in /metrics, one shared limit again`, async () => {
  for (const r of replicas) expect((await storeMetrics(r)).states).toEqual({ up: 1, slow: 0, down: 0, connecting: 0 });
  let stop = false;
  const load = loadThroughNginx(6, () => stop);
  await Bun.sleep(1000);

  const before = await Promise.all(replicas.map(storeMetrics));
  await redis.kill9();
  const killedAt = performance.now();
  await Bun.sleep(3000);
  for (const r of replicas) expect((await storeMetrics(r)).states).toMatchObject({ up: 0, down: 1 });
  await Bun.sleep(DOWN_SECONDS * 1000 - (performance.now() - killedAt));
  const after = await Promise.all(replicas.map(storeMetrics));
  const attempts = after.map((m, i) => m.attempts - before[i]!.attempts);

  await redis.restart(); // resolves once Redis answers PING
  const backAt = performance.now();
  const reconnectedAfter: number[] = [];
  for (const r of replicas) {
    for (const deadline = backAt + 10_000; (await storeMetrics(r)).states.up !== 1; await Bun.sleep(20)) {
      if (performance.now() > deadline) throw new Error(`replica ${r.port} never reconnected:\n${r.log.slice(-5).join("\n")}`);
    }
    reconnectedAfter.push((performance.now() - backAt) / 1000);
  }
  await Bun.sleep(1000);
  stop = true;
  const { statuses, failures } = await load;

  // One shared limit again: one new client alternating over the three replicas gets 10 of 40, not 30.
  let allowed = 0;
  for (let i = 0; i < 40; i++) {
    const r = await fetch(`${replicas[i % 3]!.url}/timezone/UTC`, { headers: { "x-forwarded-for": "203.0.113.99" } });
    expect([200, 429]).toContain(r.status);
    if (r.status === 200) allowed++;
  }
  console.log(`redis down ${DOWN_SECONDS} s under load: answers ${JSON.stringify(statuses)}, failures ${failures.length}; connect attempts per replica ${JSON.stringify(attempts)} (cap ${BACKOFF_MAX_MS} ms, jittered); all three reconnected ${Math.max(...reconnectedAfter).toFixed(2)} s after Redis answered PING (each: ${reconnectedAfter.map((s) => s.toFixed(2)).join(", ")}); then ${allowed} of 40 allowed across the three`);

  expect(failures).toEqual([]);
  expect(Object.keys(statuses).filter((s) => s !== "200" && s !== "429")).toEqual([]);
  expect((statuses[200] ?? 0) + (statuses[429] ?? 0)).toBeGreaterThan(1000);
  for (const [i, n] of attempts.entries()) {
    // Kept trying (at least one attempt every cap plus its connection) and never faster than
    // the jitter's floor allows: 60 s / 0.75 s plus the doubling's first steps.
    expect({ replica: i, n, atLeast: n >= 30, atMost: n <= DOWN_SECONDS / (BACKOFF_MAX_MS / 2000) + 6 }).toEqual({ replica: i, n, atLeast: true, atMost: true });
    expect(after[i]!.outages - before[i]!.outages).toBe(1);
  }
  expect(allowed).toBe(10);
}, 120_000);
