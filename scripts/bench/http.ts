// `bun run bench` (HTTP part): the service and a minimal Bun.serve baseline answering a
// constant body of the same size, each in its own process, loaded by wrk with the same
// settings in the same run. Per endpoint, BENCH_ROUNDS rounds alternate a baseline run and
// an endpoint run (a shared machine drifts by +-10% from one run to the next), and the
// medians are printed: requests/s, p50 and p99, the ratio to the baseline, and the server
// CPU time per request read from /proc (steadier than requests/s where a neighbour takes
// cycles). Where taskset exists, wrk runs on CPU 0 and the servers on CPU 1, so neither
// steals the other's core.

import { cpuMicros, pinned, PIN, startListening, startService, type Listening } from "./bench-process.ts";
import { join } from "node:path";
import { median } from "./timing.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const ENDPOINTS = (process.env.BENCH_ENDPOINTS?.split(" ") ?? [
  "/timezone/Europe/London", "/api/timezone/Europe/London.txt", "/timezone/America/Argentina/Salta", "/ip/8.8.8.8",
  "/ip/2001:4860:4860::8888", "/coordinates/51.5074,-0.1278", "/timezone", "/timezone/Europe", "/api/timezone", "/api", "/openapi.json",
  "/timezone/America/New_York/transitions", "/timezone/America/New_York/info",
  "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London",
  "/timezone?q=pacific%20time", "/timezone?q=kolk", "/timezone/Europe/London?lang=de",
  "/places?q=new%20yo", "/places?q=s&limit=50", "/timezone/Europe/London/device", "/device",
  "/clock?zones=Europe/London,Asia/Tokyo,America/New_York", "/sync?t0=1700000000000",
  "/api/Time/current/zone?timeZone=Europe/London", "/api/v1/time/current/zone?timezone=Europe/London",
  "/v2.1/get-time-zone?by=zone&zone=Europe/London&format=json", "/maps/api/timezone/json?location=51.5,-0.12&timestamp=1700000000",
]).filter(Boolean);

interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU microseconds per request, NaN where /proc is absent. */
  cpuMicros: number;
  errors: string;
}

/** wrk prints latencies as 312.00us, 1.31ms or 2.00s. */
function micros(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? "");
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === "us" ? 1 : m[2] === "ms" ? 1e3 : 1e6);
}

function wrk(server: Listening, path: string): Run {
  const before = cpuMicros(server.child.pid);
  const result = Bun.spawnSync(pinned(0, ["wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", `${server.url}${path}`]), { stdout: "pipe", stderr: "pipe" });
  const after = cpuMicros(server.child.pid);
  const out = result.stdout.toString();
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const socket = /Socket errors: ([^\n]+)/.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: micros(/\s50%\s+(\S+)/.exec(out)?.[1]),
    p99: micros(/\s99%\s+(\S+)/.exec(out)?.[1]),
    cpuMicros: (after - before) / requests,
    errors: [socket ? `socket errors: ${socket}` : "", non2xx ? `non-2xx: ${non2xx}` : ""].filter(Boolean).join("; "),
  };
}

/** Medians over rounds, in the shape of one run. */
type Summary = Run;

const summarise = (runs: Run[]): Summary => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  cpuMicros: median(runs.map((r) => r.cpuMicros)),
  errors: runs.map((r) => r.errors).filter(Boolean).join(" | ") || "none",
});

/** ROUNDS alternating runs; the ratio is the median of each round's ratio. */
function compare(baseline: Listening, subject: Listening, path: string): { base: Summary; subject: Summary; ratio: number } {
  const baseRuns: Run[] = [];
  const subjectRuns: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    baseRuns.push(wrk(baseline, "/"));
    subjectRuns.push(wrk(subject, path));
  }
  return { base: summarise(baseRuns), subject: summarise(subjectRuns), ratio: median(subjectRuns.map((r, i) => r.rps / baseRuns[i]!.rps)) };
}

const ms = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)}ms` : `${us.toFixed(0)}us`);

function row(label: string, s: Summary, ratio: string): void {
  const cpu = Number.isNaN(s.cpuMicros) ? "?" : s.cpuMicros.toFixed(2);
  console.log(`  ${label.padEnd(38)} ${s.rps.toFixed(0).padStart(8)} ${ms(s.p50).padStart(8)} ${ms(s.p99).padStart(8)} ${cpu.padStart(8)}  ${ratio.padStart(6)}  ${s.errors}`);
}

export async function benchHttp(dataDir: string): Promise<void> {
  if (!Bun.which("wrk")) {
    console.log("http: skipped, wrk is not installed (apt-get install wrk)");
    return;
  }
  const root = join(import.meta.dir, "..", "..");
  const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT: "off" }, { cpu: 1 });
  const sample = await (await fetch(`${service.url}/timezone/Europe/London`)).text();
  const baselineScript = join(import.meta.dir, "baseline-server.ts");
  const baseline = await startListening(pinned(1, [process.execPath, baselineScript]), { BODY_BYTES: String(sample.length) });
  const floor = await startListening(pinned(1, [process.execPath, baselineScript]), { BODY_BYTES: String(sample.length), BASELINE: "floor" });
  try {
    console.log(`http (wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, one service process, loopback${PIN ? ", wrk on CPU 0, servers on CPU 1" : ""}; median of ${ROUNDS} alternating rounds)`);
    console.log(`  ${"endpoint".padEnd(38)} ${"req/s".padStart(8)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"cpu us/req".padStart(8)}  ${"x base".padStart(6)}  errors`);
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
    // BENCH_ENDPOINTS: a space-separated subset (a shared machine's quiet minutes are short).
    const only = process.env.BENCH_ENDPOINTS?.split(" ").filter(Boolean);
    for (const path of only?.length ? ENDPOINTS.filter((e) => only.includes(e)) : ENDPOINTS) {
      // An answer much bigger or smaller than the time object is compared with a baseline
      // sending as many bytes (the zone list is 10 KB, /openapi.json tens of KB).
      const bytes = (await (await fetch(`${service.url}${path}`)).arrayBuffer()).byteLength;
      const sized = Math.abs(bytes - sample.length) > sample.length / 4
        ? await startListening(pinned(1, [process.execPath, baselineScript]), { BODY_BYTES: String(bytes) })
        : null;
      try {
        const { base, subject, ratio } = compare(sized ?? baseline, service, path);
        row(`  baseline (constant ${sized ? bytes : sample.length}-byte body)`, base, "");
        row(path, subject, pct(ratio));
      } finally {
        sized?.child.kill();
      }
    }
    // On a time object's path, so that Bun's router walks the same raw-path routes.
    const { base, subject, ratio } = compare(baseline, floor, "/timezone/Europe/London");
    row(`  baseline (constant ${sample.length}-byte body)`, base, "");
    row("floor of a time object", subject, pct(ratio));
    console.log("  goals: time objects >= 85% of baseline; lists and constant answers > 100%; repeated transitions, info, convert, places >= 80%");
    console.log("  floor of a time object: Bun's own work for what one needs (raw-path routes, req.url, requestIP, the Host header,");
    console.log("  fresh body bytes, six headers) and none of ours: no time-object route can pass it on this Bun");
  } finally {
    service.child.kill();
    baseline.child.kill();
    floor.child.kill();
  }
}

if (import.meta.main) await benchHttp(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
