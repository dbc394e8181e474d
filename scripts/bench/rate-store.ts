// `bun scripts/bench/rate-store.ts`: the shared rate limit (RATE_LIMIT_STORE) measured with
// a real redis-server and wrk, as issue 18 asks:
//   1. p99 latency under wrk with Redis up, and with redis-server killed (kill -9) a third of
//      the way in and restarted at two thirds: statuses other than 200/429, socket errors,
//      the fallbacks counted in /metrics and the log lines;
//   2. 100,000 distinct clients through the store: Redis's keys and memory at the peak and
//      once the buckets are full again (their keys expired).
// Timings are printed, never asserted.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "../build.ts";
import { DEFAULT_DATA_DIR, DEFAULT_TZDB_DIR } from "../paths.ts";
import { existsSync } from "node:fs";

const ROOT = join(import.meta.dir, "..", "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const LUA = join(import.meta.dir, "rate-store.lua");

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function redisServer(port: number) {
  const child = Bun.spawn(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdout: "ignore", stderr: "ignore" });
  const cli = async (...args: string[]) => (await new Response(Bun.spawn(["redis-cli", "-p", String(port), ...args], { stdout: "pipe" }).stdout).text()).trim();
  while ((await cli("PING")) !== "PONG") await Bun.sleep(20);
  return { child, cli };
}

async function service(env: Record<string, string>, dataDir: string) {
  const log: string[] = [];
  const port = await freePort();
  const child = Bun.spawn([process.execPath, join(ROOT, "server", "process", "main.ts")], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, TRUST_PROXY: "loopback", ACCESS_LOG: "off", ...env },
    stdout: "pipe", stderr: "pipe",
  });
  for (const stream of [child.stdout, child.stderr]) void (async () => { for await (const c of stream) log.push(...new TextDecoder().decode(c).split("\n").filter(Boolean)); })();
  const url = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${url}/health/ready`).then((r) => r.ok, () => false))) await Bun.sleep(50);
  return { url, child, log };
}

interface WrkRun { statuses: Record<string, number>; p99: number; p50: number; socketErrors: string; requests: number }

function wrk(url: string, seconds: number, args: string[] = []): Promise<WrkRun> {
  return (async () => {
    const p = Bun.spawn(["wrk", "-t2", "-c20", `-d${seconds}s`, "--latency", "-s", LUA, `${url}/timezone/Europe/London`, "--", ...args], { stdout: "pipe", stderr: "pipe" });
    const out = await new Response(p.stdout).text();
    const statuses: Record<string, number> = {};
    for (const m of out.matchAll(/^status (\d+) (\d+)$/gm)) statuses[m[1]!] = Number(m[2]);
    return {
      statuses,
      p99: Number(/^p99_us (\d+)/m.exec(out)?.[1]),
      p50: Number(/^p50_us (\d+)/m.exec(out)?.[1]),
      socketErrors: /Socket errors: (.*)/.exec(out)?.[1] ?? "none",
      requests: Number(/(\d+) requests in/.exec(out)?.[1]),
    };
  })();
}

const dataDir = resolve(process.env.DATA_DIR || DEFAULT_DATA_DIR);
if (!existsSync(join(dataDir, "manifest.json"))) await build({ tzdbDir: DEFAULT_TZDB_DIR, outDir: mkdtempSync(join(tmpdir(), "zonetime-bench-")) });

const redisPort = await freePort();
let redis = await redisServer(redisPort);
const store = `redis://127.0.0.1:${redisPort}`;
const metricsOf = async (url: string) => (await (await fetch(`${url}/metrics`)).text()).split("\n").filter((l) => l.startsWith("zonetime_rate_store")).join(", ");

// 1. kill -9 under load. A limit most requests stay under, so latency is that of answers.
const s = await service({ WORKERS: "2", RATE_LIMIT: "1000000/1s", RATE_LIMIT_STORE: store }, dataDir);
while (!s.log.some((l) => l.includes("rate_store_connected"))) await Bun.sleep(20);
const local = await service({ WORKERS: "2", RATE_LIMIT: "1000000/1s" }, dataDir);
const without = await wrk(local.url, SECONDS);
local.child.kill();
const steady = await wrk(s.url, SECONDS);
const killed = wrk(s.url, SECONDS);
await Bun.sleep((SECONDS * 1000) / 3);
redis.child.kill("SIGKILL");
const killedAt = Date.now();
await Bun.sleep((SECONDS * 1000) / 3);
redis = await redisServer(redisPort);
const restartedAt = Date.now();
const during = await killed;
const restored = s.log.find((l) => l.includes("rate_store_restored") && Date.parse(JSON.parse(l).time) > restartedAt - 1000);
console.log(`load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")} on ${navigator.hardwareConcurrency} cores`);
console.log(`rate store under wrk -t2 -c20 -d${SECONDS}s, WORKERS=2, one client (X-Forwarded-For from loopback):`);
console.log(`  no store:              p50 ${without.p50} us, p99 ${without.p99} us, ${without.requests} requests, statuses ${JSON.stringify(without.statuses)}, socket errors ${without.socketErrors}`);
console.log(`  store, Redis up:       p50 ${steady.p50} us, p99 ${steady.p99} us, ${steady.requests} requests, statuses ${JSON.stringify(steady.statuses)}, socket errors ${steady.socketErrors}`);
console.log(`  Redis kill -9 + start: p50 ${during.p50} us, p99 ${during.p99} us, ${during.requests} requests, statuses ${JSON.stringify(during.statuses)}, socket errors ${during.socketErrors}`);
console.log(`  p99 rise over Redis up: ${((during.p99 - steady.p99) / 1000).toFixed(2)} ms`);
console.log(`  metrics: ${await metricsOf(s.url)}`);
for (const l of s.log.filter((l) => l.includes("rate_store_"))) console.log(`  log: ${l}`);
console.log(`  restored ${restored ? ((Date.parse(JSON.parse(restored).time) - restartedAt) / 1000).toFixed(2) + " s after the restart" : "not yet"} (killed ${((restartedAt - killedAt) / 1000).toFixed(1)} s)`);
s.child.kill();

// 2. 100,000 distinct clients, RATE_LIMIT=120/60s: one request each leaves a key for one interval (0.5 s).
const t = await service({ WORKERS: "2", RATE_LIMIT: "120/60s", RATE_LIMIT_STORE: store, RATE_LIMIT_STORE_TIMEOUT_MS: "50" }, dataDir);
while (!t.log.some((l) => l.includes("rate_store_connected"))) await Bun.sleep(20);
const before = Number(/used_memory:(\d+)/.exec(await redis.cli("INFO", "memory"))![1]);
let peakKeys = 0;
let peakMemory = 0;
let sent = 0;
const watching = (async () => {
  for (;;) {
    const info = await redis.cli("INFO", "memory");
    peakMemory = Math.max(peakMemory, Number(/used_memory:(\d+)/.exec(info)![1]));
    peakKeys = Math.max(peakKeys, Number(await redis.cli("DBSIZE")));
    if (sent >= 100_000) return;
    await Bun.sleep(100);
  }
})();
// wrk by time: enough seconds for 100,000 requests at the rate measured above, then counted.
const distinct = await wrk(t.url, Math.max(5, Math.ceil(100_000 / Math.max(1, steady.requests / SECONDS)) + 2), ["distinct"]);
sent = 100_000;
await watching;
const stored = Number(await redis.cli("DBSIZE"));
await Bun.sleep(1500);
const after = Number(/used_memory:(\d+)/.exec(await redis.cli("INFO", "memory"))![1]);
console.log(`distinct clients: ${distinct.requests} requests, each from another address, statuses ${JSON.stringify(distinct.statuses)}`);
console.log(`  Redis: ${(before / 1e6).toFixed(2)} MB before, peak ${peakKeys} keys and ${(peakMemory / 1e6).toFixed(2)} MB, ${stored} keys at the end, ${await redis.cli("DBSIZE")} keys and ${(after / 1e6).toFixed(2)} MB 1.5 s later (each key expires when its bucket is full again)`);
console.log(`  metrics: ${await metricsOf(t.url)}`);
t.child.kill();
redis.child.kill();
process.exit(0);
