// `bun scripts/bench/memo-gains.ts` (part of `bun run bench`): what each memo store buys on
// the route it serves (server/http/caching/memos.ts: a store stays only where it buys at
// least 3%; a memo of each URL's route, measured here at -19%, went). The fetch handler is called in process on the real tables, as handler-cpu.ts
// does, twice: with every store, and with the one store under test replaced by one that
// never keeps anything (every request a miss, as a cold store is). Rounds alternate the two
// so that drift hits both; CPU microseconds per request, median of BENCH_ROUNDS.

import { join } from "node:path";
import { realtimeClock } from "../../server/core/clock.ts";
import { Memo } from "../../server/http/caching/memo.ts";
import type { Memos } from "../../server/http/caching/memos.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { readConfig } from "../../server/process/config.ts";
import { loadData } from "../../server/process/load-data.ts";
import { median } from "./timing.ts";

const COUNT = Number(process.env.BENCH_COUNT ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** A store that keeps nothing: every lookup a miss. */
class Cold<V> extends Memo<V> {
  constructor() {
    super("cold", { maxEntries: 0, maxKeyLength: 0, maxBytes: 0 });
  }
}

/** Each store and the requests it serves (a clock, a dashboard, a device asking the same again). */
const STORES: [keyof Memos, string[]][] = [
  ["answerKeys", ["/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London", "/timezone/America/New_York/transitions?from=2026-01-01T00:00:00Z", "/timezone/Europe/London/device"]],
  ["addresses", ["/ip/8.8.8.8", "/ip/2001:4860:4860::8888"]],
  ["points", ["/coordinates/51.5074,-0.1278"]],
  ["timeapiZones", ["/api/Time/current/zone?timeZone=Europe/London", "/api/v1/time/current/zone?timezone=Europe/London"]],
  ["clockLists", ["/clock?zones=Europe/London,Asia/Tokyo,America/New_York"]],
  ["dialectAnswers", ["/v2.1/get-time-zone?key=K&format=json&by=zone&zone=Europe/London&time=1763719200", "/maps/api/timezone/json?location=51.5,-0.12&timestamp=1700000000"]],
  ["timezoneNames", ["/timezone/Europe/London?lang=de"]],
];

export async function benchMemoGains(dataDir: string): Promise<void> {
  const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: "/nonexistent" });
  const tables = await loadData(dataDir);
  const headers = { host: "127.0.0.1:8080", "user-agent": "wrk", accept: "*/*" };
  console.log(`memo gains: handler in process, ${COUNT} requests a round, median of ${ROUNDS} alternating rounds; CPU us/request with the store, and with it cold`);
  for (const [store, paths] of STORES) {
    const warm = createAppState(tables, realtimeClock, config);
    const cold = createAppState(tables, realtimeClock, config);
    (cold.data.memos as unknown as Record<string, Memo<unknown>>)[store] = new Cold();
    const handlers = [createFetchHandler(warm), createFetchHandler(cold)];
    for (const path of paths) {
      const url = `http://127.0.0.1:8080${path}`;
      const round = (h: (typeof handlers)[number]) => {
        const start = process.cpuUsage();
        let sink = 0;
        for (let i = 0; i < COUNT; i++) sink += (h(new Request(url, { headers }), null) as Response).status;
        const used = process.cpuUsage(start);
        if (sink !== 200 * COUNT) throw new Error(`${path}: not every answer was 200`);
        return (used.user + used.system) / COUNT;
      };
      handlers.forEach(round); // warm both
      const runs: [number[], number[]] = [[], []];
      for (let r = 0; r < ROUNDS; r++) for (const i of [0, 1]) runs[i]!.push(round(handlers[i]!));
      const [on, off] = runs.map(median) as [number, number];
      console.log(`  ${store.padEnd(15)} ${path.slice(0, 70).padEnd(70)} ${on.toFixed(3).padStart(7)} ${off.toFixed(3).padStart(7)}  gain ${(((off - on) / off) * 100).toFixed(1).padStart(5)}%`);
    }
  }
}

if (import.meta.main) await benchMemoGains(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
