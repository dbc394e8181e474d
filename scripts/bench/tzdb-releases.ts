// `bun scripts/bench/tzdb-releases.ts`: what `?tzdb=` costs. The fetch handler called in
// process (as handler-cpu.ts does), CPU microseconds per request, the default answer and the
// same query as an old release in alternating rounds of the same run; the ratio is the old
// release's throughput relative to the default's (issue 33 asks at least 0.9). Run it pinned
// to one core (`taskset -c 1 bun scripts/bench/tzdb-releases.ts`) on a shared machine.

import { join } from "node:path";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { realtimeClock } from "../../server/core/clock.ts";
import { readConfig } from "../../server/process/config.ts";
import { loadData } from "../../server/process/load-data.ts";
import { median } from "./timing.ts";

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OLD = process.env.BENCH_TZDB ?? "2019c";
const QUERIES = [
  "/timezone/Europe/London",
  "/timezone/America/New_York/transitions?from=2019-01-01T00:00:00Z",
  "/timezone/America/New_York/info?at=2019-06-01T00:00:00Z",
];

export async function benchTzdbReleases(dataDir: string): Promise<void> {
  const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: "/nonexistent" });
  const state = createAppState(await loadData(dataDir), realtimeClock, config);
  const handler = createFetchHandler(state);
  const headers = { host: "127.0.0.1:8080", "user-agent": "bench", accept: "*/*" };
  let sink = 0;
  function round(path: string): number {
    const url = `http://127.0.0.1:8080${path}`;
    const start = process.cpuUsage();
    for (let i = 0; i < COUNT; i++) {
      const res = handler(new Request(url, { headers }), null) as Response;
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      sink += res.status;
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / COUNT;
  }
  console.log(`?tzdb=${OLD} against the default (${state.data.history.defaultRelease}): ${COUNT} requests per round, median of ${ROUNDS} alternating rounds; CPU us/request`);
  for (const path of QUERIES) {
    const old = `${path}${path.includes("?") ? "&" : "?"}tzdb=${OLD}`;
    round(path);
    round(old); // warm both (the release's table and data are made on first use)
    const base: number[] = [];
    const release: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      base.push(round(path));
      release.push(round(old));
    }
    const [b, o] = [median(base), median(release)];
    console.log(`  ${path.padEnd(68)} default ${b.toFixed(3)}  ?tzdb=${OLD} ${o.toFixed(3)}  throughput ratio ${(b / o).toFixed(3)}`);
    if (process.env.BENCH_NAMED_DEFAULT) {
      const named = `${path}${path.includes("?") ? "&" : "?"}tzdb=${state.data.history.defaultRelease}`;
      round(named);
      console.log(`  ${"".padEnd(68)} ?tzdb=${state.data.history.defaultRelease} ${median(Array.from({ length: ROUNDS }, () => round(named))).toFixed(3)}`);
    }
  }
  if (sink === 0) console.log("unreachable");
}

if (import.meta.main) await benchTzdbReleases(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
