// `bun scripts/bench/answer-prices.ts` (part of `bun run bench`): what each route's costliest
// query costs the server, in time objects, against what it charges the client's rate limit
// budget (issue 30: "costs priced by what they cost"). The service runs as its own process,
// pinned where taskset exists; each row sends its query COUNT times, a new instant or window
// each time where the answer is cached per query (so every request is a build), and reads
// the server's CPU time from /proc. A time object (/timezone/Europe/London) measured in the
// same run is the unit. Each request comes from a new client address (through a trusted
// proxy), so the RateLimit header's remaining tokens say what that one answer was charged.
//
// The goal: no row above 10 time objects per token charged.

import { cpuMicros, startService } from "./bench-process.ts";
import { join } from "node:path";
import { median } from "./timing.ts";
import { costliestQueries, type Row } from "./costliest-queries.ts";

const BURST = 1_000_000;

interface Measured {
  cpuMicros: number;
  charges: number[];
  statuses: Set<number>;
}

async function measure(url: string, pid: number, row: Row): Promise<Measured> {
  const charges: number[] = [];
  const statuses = new Set<number>();
  const before = cpuMicros(pid);
  for (let n = 0; n < row.count; n++) {
    const { path, body } = row.request(n);
    // A new client for each request: it starts with the whole burst, so what is left says what this one answer cost.
    const client = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const init: RequestInit = body === undefined
      ? { headers: { "X-Forwarded-For": client } }
      : { method: "POST", body, headers: { "X-Forwarded-For": client, "Content-Type": "application/json" } };
    const response = await fetch(`${url}${path}`, init);
    await response.arrayBuffer();
    statuses.add(response.status);
    const left = Number(/r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1]);
    charges.push(BURST - left);
  }
  return { cpuMicros: (cpuMicros(pid) - before) / row.count, charges, statuses };
}

export async function benchAnswerPrices(dataDir: string): Promise<void> {
  // Every address is a new client: a limit per hour so that the burst is the budget and refill is negligible.
  const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT: `${BURST}/3600s`, TRUST_PROXY: "loopback" }, { cpu: 1 });
  try {
    console.log("answer prices: server CPU per request in time objects (a new build each request where answers are cached per query), and the tokens charged");
    const releases = ((await (await fetch(`${service.url}/tzdb`)).json()) as { releases: { release: string }[] }).releases.map((r) => r.release);
    const results: [Row, Measured][] = [];
    // PRICES_ONLY=text: the unit and the rows whose label holds it.
    const only = process.env.PRICES_ONLY;
    for (const row of costliestQueries(releases).filter((r, i) => i === 0 || only === undefined || r.label.includes(only))) {
      // Warmed on other queries of the same shape than those measured (each built once at most).
      await measure(service.url, service.child.pid, { ...row, count: Math.min(row.count, 20), request: (n) => row.request(row.count + n) });
      results.push([row, await measure(service.url, service.child.pid, row)]);
    }
    const unit = results[0]![1].cpuMicros;
    console.log(`  ${"query".padEnd(46)} ${"cpu us".padStart(8)} ${"time objs".padStart(9)} ${"charged".padStart(12)} ${"objs/token".padStart(10)} statuses`);
    for (const [row, m] of results) {
      const objects = m.cpuMicros / unit;
      // The median: a few clients' entries share a slot of the rate table with an earlier one and read high.
      const charged = median(m.charges);
      const perToken = objects / charged;
      console.log(`  ${row.label.padEnd(46)} ${m.cpuMicros.toFixed(0).padStart(8)} ${objects.toFixed(1).padStart(9)} ${String(charged).padStart(12)} ${perToken.toFixed(1).padStart(10)} ${[...m.statuses].join(",")}${perToken > 10 ? "  OVER 10" : ""}`);
    }
  } finally {
    service.child.kill();
  }
}

if (import.meta.main) await benchAnswerPrices(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
