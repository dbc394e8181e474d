// `bun scripts/bench/handler-cpu.ts`: the fetch handler called in process (no sockets), CPU
// microseconds per request per route, read from process.cpuUsage over a fixed count. On a
// shared machine this is steadier than requests/s: what a neighbour takes is not counted,
// only what our code costs (cache contention aside). Median of BENCH_ROUNDS rounds.

import { join } from "node:path";
import { createAppState, createFetchHandler } from "../../server/http/handler.ts";
import { realtimeClock } from "../../server/core/clock.ts";
import { readConfig } from "../../server/process/config.ts";
import { loadData } from "../../server/process/load-data.ts";
import { median } from "./timing.ts";

const COUNT = Number(process.env.BENCH_COUNT ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PATHS = (process.env.BENCH_ENDPOINTS?.split(" ") ?? [
  "/timezone/Europe/London", "/api/timezone/Europe/London.txt", "/ip/8.8.8.8", "/ip/2001:4860:4860::8888",
  "/coordinates/51.5074,-0.1278", "/timezone", "/api", "/openapi.json",
  "/timezone/America/New_York/transitions", "/timezone/America/New_York/info",
  "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London",
]).filter(Boolean);

const dataDir = process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated");
const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: "/nonexistent" });
const state = createAppState(await loadData(dataDir), realtimeClock, config);
const handler = createFetchHandler(state);
const headers = { host: "127.0.0.1:8080", "user-agent": "wrk", accept: "*/*" };

let sink = 0;
function round(path: string): number {
  const url = `http://127.0.0.1:8080${path}`;
  const start = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) {
    const res = handler(new Request(url, { headers }), null);
    sink += res.status;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / COUNT;
}

console.log(`handler in process: ${COUNT} requests per round, median of ${ROUNDS}; CPU us/request`);
for (const path of PATHS) {
  round(path); // warm
  const runs = Array.from({ length: ROUNDS }, () => round(path));
  console.log(`  ${path.padEnd(78)} ${median(runs).toFixed(3).padStart(7)}  (${runs.map((r) => r.toFixed(3)).join(" ")})`);
}
if (sink === 0) console.log("unreachable");
