// `bun scripts/bench/handler-ab.ts OLD_CHECKOUT [NEW_CHECKOUT]`: the fetch handlers of two
// checkouts (each with its generated/ built) in one process, no sockets, for ab.ts's
// endpoints: per endpoint, BENCH_ROUNDS short rounds of BENCH_COUNT requests through each,
// the order alternating, and the median of each round's new/old time per request with its
// interquartile range.
//
// Why short rounds, many: over HTTP on this 2-core VM (ab.ts) one endpoint's rounds spread by
// 10-30%, and 15 long rounds in process still read 0.90-1.16 for two identical handlers: the
// machine drifts over seconds. 301 rounds of 2,000 requests (4-30 ms each) interleave old
// and new finely enough that the drift cancels: a checkout against a copy of itself reads
// 0.993-0.998 (IQR about +-3%). Two cautions, measured: one endpoint's median moves by up to
// about 3% from one process to the next (each compiles its own way), so trust a ratio that
// repeats over three runs; and an endpoint run alone (BENCH_ENDPOINTS) reads lower than in
// the whole list (/clock 1.019 alone, 1.055-1.079 in full runs), so compare full runs with
// full runs. That is the JIT, not the handler's state: a fresh handler of a module whose
// code has served the other endpoints reads as slow as the one that served them (/sync
// 2.5-4% slower than a fresh copy of the same code in another checkout; old main's 1-2%).
// Most of it was `respond` (pipeline/handler.ts) holding every kind of answer, recompiled
// twice its size once it had seen them all; with only the common answer in it, 0.1-0.5%.
// What differs only in the bytes handed to Bun's HTTP layer (headers) is ab.ts's to show.

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ENDPOINTS } from "./http.ts";

const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 301);

type Handler = (request: Request, server: unknown) => Response | Promise<Response>;

/** A checkout's fetch handler on its own generated/ (before the house, issue 31, its modules lay flat in server/http/). */
async function handlerOf(checkout: string): Promise<Handler> {
  const http = join(checkout, "server", "http");
  const pipeline = existsSync(join(http, "pipeline")) ? join(http, "pipeline") : http;
  const dataDir = join(checkout, "generated");
  const { loadData } = await import(join(checkout, "server", "process", "load-data.ts"));
  const { readConfig } = await import(join(checkout, "server", "process", "config.ts"));
  const { realtimeClock } = await import(join(checkout, "server", "core", "clock.ts"));
  const { createAppState } = await import(join(pipeline, "app-state.ts"));
  const { createFetchHandler } = await import(join(pipeline, "handler.ts"));
  const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: join(dataDir, "no-site") });
  return createFetchHandler(createAppState(await loadData(dataDir), realtimeClock, config));
}

// What the handler reads of Bun's server: the peer's address.
const server = { requestIP: () => ({ address: "127.0.0.1", family: "IPv4", port: 1 }), timeout() {} };
const headers = { host: "127.0.0.1:8080", "user-agent": "wrk", accept: "*/*" };

/** Microseconds per request, `count` requests of `path` answered and their bodies read. */
async function perRequest(handler: Handler, path: string, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const response = await handler(new Request(`http://127.0.0.1:8080${path}`, { headers }), server);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await response.arrayBuffer();
  }
  return ((performance.now() - start) / count) * 1000;
}

const quantile = (sorted: number[], q: number) => sorted[Math.floor((sorted.length - 1) * q)]!;

const [oldDir, newDir = join(import.meta.dir, "..", "..")] = process.argv.slice(2).map((d) => resolve(d));
if (oldDir === undefined) throw new Error("usage: bun scripts/bench/handler-ab.ts OLD_CHECKOUT [NEW_CHECKOUT]");
const [oldHandler, newHandler] = [await handlerOf(oldDir), await handlerOf(newDir!)];
console.log(`handler A/B in process: ${oldDir} (old) and ${newDir} (new); ${ROUNDS} rounds of ${COUNT} requests each, alternating`);
console.log(`  ${"endpoint".padEnd(66)} ${"old us".padStart(7)} ${"new us".padStart(7)} ${"new/old".padStart(7)} ${"IQR".padStart(13)}`);
for (const path of ENDPOINTS) {
  await perRequest(oldHandler, path, COUNT); // compiled, and the answers that are kept, kept
  await perRequest(newHandler, path, COUNT);
  const old: number[] = [];
  const neu: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const runOld = async () => old.push(await perRequest(oldHandler, path, COUNT));
    const runNew = async () => neu.push(await perRequest(newHandler, path, COUNT));
    if (r % 2 === 0) { await runOld(); await runNew(); } else { await runNew(); await runOld(); }
  }
  const ratios = neu.map((n, r) => n / old[r]!).sort((a, b) => a - b);
  const [o, n] = [[...old].sort((a, b) => a - b), [...neu].sort((a, b) => a - b)];
  const iqr = `${quantile(ratios, 0.25).toFixed(3)}-${quantile(ratios, 0.75).toFixed(3)}`;
  console.log(`  ${path.slice(0, 66).padEnd(66)} ${quantile(o, 0.5).toFixed(2).padStart(7)} ${quantile(n, 0.5).toFixed(2).padStart(7)} ${quantile(ratios, 0.5).toFixed(3).padStart(7)} ${iqr.padStart(13)}`);
}
