// `bun scripts/bench/handler-cpu.ts`: the fetch handler called in process (no sockets), CPU
// microseconds per request per route, read from process.cpuUsage over a fixed count. On a
// shared machine this is steadier than requests/s: what a neighbour takes is not counted,
// only what our code costs (cache contention aside). Median of BENCH_ROUNDS rounds.

import { join } from "node:path";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
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
  "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London", "/timezone/Europe/London/device",
]).filter(Boolean);

export async function benchHandlerCpu(dataDir: string): Promise<void> {
  const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: "/nonexistent" });
  const state = createAppState(await loadData(dataDir), realtimeClock, config);
  const handler = createFetchHandler(state);
  const headers = { host: "127.0.0.1:8080", "user-agent": "wrk", accept: "*/*" };

  let sink = 0;
  let statuses = "";
  // The floor of this measure: making the Request and a constant Response, no handler.
  const constant = new Blob(["x".repeat(350)]);
  const baseline = () => new Response(constant, { headers: state.data.responses.timeObjectHeaders("json") });
  function round(path: string, handle: (req: Request) => Response = (req) => handler(req, null) as Response): number {
    const url = `http://127.0.0.1:8080${path}`;
    const start = process.cpuUsage();
    for (let i = 0; i < COUNT; i++) {
      const res = handle(new Request(url, { headers }));
      sink += res.status;
      if (i === 0) statuses = String(res.status);
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / COUNT;
  }

  console.log(`handler in process: ${COUNT} requests per round, median of ${ROUNDS}; CPU us/request`);
  const show = (label: string, runs: number[]) =>
    console.log(`  ${label.padEnd(78)} ${median(runs).toFixed(3).padStart(7)}  (${runs.map((r) => r.toFixed(3)).join(" ")}) ${statuses}`);
  round("/", baseline);
  show("floor: new Request + a constant 350-byte Response (no handler)", Array.from({ length: ROUNDS }, () => round("/", baseline)));
  for (const path of PATHS) {
    round(path); // warm
    show(path, Array.from({ length: ROUNDS }, () => round(path)));
  }
  if (sink === 0) console.log("unreachable");
}

if (import.meta.main) await benchHandlerCpu(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
