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

import { cpuTicks, startService, TICKS_PER_SECOND } from "./bench-process.ts";
import { join } from "node:path";
import { median } from "./timing.ts";

const BURST = 1_000_000;
const UNIT = "/timezone/Europe/London";
const FIRST_SECOND = -62135596800; // 0001-01-01T00:00:00Z
const LAST_SECOND = 253402300799; // 9999-12-31T23:59:59Z

interface Row {
  label: string;
  count: number;
  /** The n-th request: a path, or a POST. */
  request: (n: number) => { path: string; body?: string };
}

const randomInstant = (n: number, from: number, to: number) => Math.floor(from + ((n * 7919 + 104729) % 1_000_003) / 1_000_003 * (to - from));
const everyYear = (n: number) => randomInstant(n, FIRST_SECOND, LAST_SECOND);
const twentiethCentury = (n: number) => randomInstant(n, -2208988800, 946684800);

const ROWS: Row[] = [
  { label: "time object (the unit)", count: 4000, request: () => ({ path: UNIT }) },
  { label: "/device?at= random year 0001-9999", count: 120, request: (n) => ({ path: `/device?at=${everyYear(n)}` }) },
  { label: "/device?at= random instant 1900-2000", count: 120, request: (n) => ({ path: `/device?at=${twentiethCentury(n)}` }) },
  { label: "/device.csv?at= random instant 1900-2000", count: 120, request: (n) => ({ path: `/device.csv?at=${twentiethCentury(n) + 1}` }) },
  { label: "/device (now)", count: 400, request: () => ({ path: "/device" }) },
  { label: "transitions 0001-9999, a new window each", count: 200, request: (n) => ({ path: `/timezone/America/New_York/transitions?from=0001-01-01T00:00:00Z&to=${LAST_SECOND - n}` }) },
  { label: "/timezone/{name}/device?at= year 1900-2000", count: 1000, request: (n) => ({ path: `/timezone/Europe/Paris/device?at=${twentiethCentury(n)}` }) },
  { label: "/timezone/{name}/info", count: 2000, request: () => ({ path: "/timezone/Europe/Paris/info" }) },
  { label: "/convert far range", count: 2000, request: (n) => ({ path: `/convert?time=${9000 + (n % 999)}-06-01T12:00:00&from=America/New_York&to=Asia/Kolkata` }) },
  { label: "/clock?zones= 100 names", count: 400, request: () => ({ path: `/clock?zones=${Array.from({ length: 100 }, (_, i) => ["Europe/London", "America/New_York", "Asia/Tokyo", "Australia/Sydney"][i % 4]).join(",")}` }) },
  { label: "/timezone (the list)", count: 2000, request: () => ({ path: "/timezone" }) },
  { label: "/timezone?q=a (a prefix of many keys)", count: 1000, request: (n) => ({ path: `/timezone?q=${"abcdefghijklmnopqrstuvwxyz"[n % 26]}` }) },
  { label: "/places?q=san&limit=50", count: 1000, request: (n) => ({ path: `/places?q=${["san", "new", "port", "saint"][n % 4]}&limit=50` }) },
  { label: "TimeZoneDB list-time-zone (json)", count: 1000, request: () => ({ path: "/v2.1/list-time-zone?key=K&format=json" }) },
  { label: "TimeZoneDB list-time-zone (xml)", count: 1000, request: () => ({ path: "/v2.1/list-time-zone?key=K&format=xml" }) },
  { label: "TimeZoneDB get-time-zone by=city", count: 1000, request: (n) => ({ path: `/v2.1/get-time-zone?key=K&format=json&by=city&city=${["San", "New", "Port"][n % 3]}&country=US` }) },
  { label: "timeapi.io AvailableTimeZones", count: 2000, request: () => ({ path: "/api/TimeZone/AvailableTimeZones" }) },
  { label: "timeapi.io ConvertTimeZone (POST)", count: 2000, request: (n) => ({ path: "/api/Conversion/ConvertTimeZone", body: JSON.stringify({ fromTimeZone: "Europe/Amsterdam", dateTime: `${1 + (n % 9998)}`.padStart(4, "0") + "-03-28 02:30:00", toTimeZone: "America/Los_Angeles", dstAmbiguity: "" }) }) },
  { label: "Google timezone", count: 2000, request: (n) => ({ path: `/maps/api/timezone/json?location=38.908133,-77.047119&timestamp=${1458000000 + n}` }) },
  // The time machine (issue 33): releases from GET /tzdb, newest first.
  { label: "/tzdb/{release}/changes each release's own", count: 100, request: (n) => ({ path: `/tzdb/${releases[n % (releases.length - 1)]}/changes` }) },
  { label: "/tzdb/{release}/changes?since= a far pair each", count: 40, request: (n) => ({ path: `/tzdb/${releases[n % 20]}/changes?since=${releases[releases.length - 1 - Math.floor(n / 20)]}` }) },
  { label: "/timezone/{name}/changes oldest..newest", count: 400, request: (n) => ({ path: `/timezone/America/New_York/changes?from=${releases.at(-1)}&to=${releases[0]}&end=${2100 + (n % 7000)}-01-01T00:00:00Z` }) },
  { label: "/device?tzdb= random instant 1900-2000", count: 120, request: (n) => ({ path: `/device?tzdb=${releases[1 + (n % (releases.length - 1))]}&at=${twentiethCentury(n)}` }) },
];

/** The releases the service serves, newest first (read from GET /tzdb before the rows run). */
let releases: string[] = [];

interface Measured {
  cpuMicros: number;
  charges: number[];
  statuses: Set<number>;
}

async function measure(url: string, pid: number, row: Row): Promise<Measured> {
  const charges: number[] = [];
  const statuses = new Set<number>();
  const before = cpuTicks(pid);
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
  const ticks = cpuTicks(pid) - before;
  return { cpuMicros: (ticks / TICKS_PER_SECOND / row.count) * 1e6, charges, statuses };
}

export async function benchAnswerPrices(dataDir: string): Promise<void> {
  // Every address is a new client: a limit per hour so that the burst is the budget and refill is negligible.
  const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT: `${BURST}/3600s`, TRUST_PROXY: "loopback" }, { cpu: 1 });
  try {
    console.log("answer prices: server CPU per request in time objects (a new build each request where answers are cached per query), and the tokens charged");
    releases = ((await (await fetch(`${service.url}/tzdb`)).json()) as { releases: { release: string }[] }).releases.map((r) => r.release);
    const results: [Row, Measured][] = [];
    // PRICES_ONLY=text: the unit and the rows whose label holds it.
    const only = process.env.PRICES_ONLY;
    for (const row of ROWS.filter((r, i) => i === 0 || only === undefined || r.label.includes(only))) {
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
