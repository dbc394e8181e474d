// `bun run bench` (world clock part): one /clock of ten names against the same ten names
// asked one request each, on one service process under the same wrk load. Reported per
// name: the server's CPU time (from /proc, steadier than requests/s on a shared machine)
// and names answered per second. The median of BENCH_ROUNDS alternating rounds.

import { cpuMicros, pinned, PIN, startService } from "./bench-process.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./timing.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NAMES = ["America/New_York", "Europe/London", "Asia/Tokyo", "Australia/Sydney", "Asia/Kathmandu",
  "America/Sao_Paulo", "Europe/Berlin", "Africa/Lagos", "Asia/Kolkata", "Pacific/Auckland"];


interface Run { namesPerSecond: number; cpuMicrosPerName: number; errors: string }

/** wrk on `url` (with `script` when given), each answer worth `namesPerAnswer` names. */
function load(pid: number, url: string, namesPerAnswer: number, script?: string): Run {
  const before = cpuMicros(pid);
  const args = ["wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, ...(script ? ["-s", script] : []), url];
  const out = Bun.spawnSync(pinned(0, args), { stdout: "pipe", stderr: "pipe" }).stdout.toString();
  const micros = cpuMicros(pid) - before;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  const socket = /Socket errors: ([^\n]+)/.exec(out)?.[1];
  return {
    namesPerSecond: rps * namesPerAnswer,
    cpuMicrosPerName: micros / (requests * namesPerAnswer),
    errors: [socket ? `socket errors: ${socket}` : "", non2xx ? `non-2xx: ${non2xx}` : ""].filter(Boolean).join("; "),
  };
}

export async function benchWorldClock(dataDir: string): Promise<void> {
  if (!Bun.which("wrk")) {
    console.log("world clock: skipped, wrk is not installed (apt-get install wrk)");
    return;
  }
  const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT: "off" }, { cpu: 1 });
  // The ten single requests, in turn on every connection.
  const script = join(mkdtempSync(join(tmpdir(), "zonetime-bench-")), "singles.lua");
  writeFileSync(script, `local paths = {${NAMES.map((n) => `"/timezone/${n}"`).join(", ")}}\nlocal i = 0\n` +
    `request = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`);
  const clockPath = `/clock?zones=${NAMES.join(",")}`;
  try {
    const clock: Run[] = [];
    const singles: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      singles.push(load(service.child.pid, service.url, 1, script));
      clock.push(load(service.child.pid, `${service.url}${clockPath}`, NAMES.length));
    }
    const cpu = (runs: Run[]) => median(runs.map((r) => r.cpuMicrosPerName));
    const rate = (runs: Run[]) => median(runs.map((r) => r.namesPerSecond));
    const errors = (runs: Run[]) => runs.map((r) => r.errors).filter(Boolean).join(" | ") || "none";
    console.log(`world clock (wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, one service process${PIN ? ", wrk on CPU 0, service on CPU 1" : ""}; median of ${ROUNDS} alternating rounds)`);
    console.log(`  ${"".padEnd(34)} ${"names/s".padStart(9)} ${"cpu us/name".padStart(12)}  errors`);
    console.log(`  ${"10 single /timezone/{name}".padEnd(34)} ${rate(singles).toFixed(0).padStart(9)} ${cpu(singles).toFixed(2).padStart(12)}  ${errors(singles)}`);
    console.log(`  ${"one /clock of the same 10 names".padEnd(34)} ${rate(clock).toFixed(0).padStart(9)} ${cpu(clock).toFixed(2).padStart(12)}  ${errors(clock)}`);
    console.log(`  /clock: ${(cpu(singles) / cpu(clock)).toFixed(1)}x less CPU per name, ${(rate(clock) / rate(singles)).toFixed(1)}x the names per second`);
  } finally {
    service.child.kill();
  }
}

if (import.meta.main) await benchWorldClock(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
