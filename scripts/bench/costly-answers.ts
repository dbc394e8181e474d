// `bun run bench` (cost part, issue 17 F4): what the costliest query costs the server, and
// how much of a core one client can take with it.
//
// 1. Full-range transitions (0001..9999, 1000 entries, ~310 KB): the server's CPU time per
//    request under wrk, built every time (each request a new window, so no cache helps),
//    answered from the answer cache (the same window), and revalidated (If-None-Match: 304).
//    Loopback clients, so no limit applies. The 304 must cost < 1/10 of the built 200.
// 2. One client at the default RATE_LIMIT (through a trusted proxy, so it is limited):
//    asking the costliest query with a new window each time, as fast as the limit lets it
//    (waiting as the RateLimit header says), for COST_SECONDS: the server's CPU share, on
//    average and in its busiest second. The goal: under a tenth of one core.
//    Then the same client ignoring the 429s (wrk, full speed): what refusals cost.

import { cpuMicros, startService } from "./bench-process.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const COST_SECONDS = Number(process.env.COST_SECONDS ?? 30);
const FULL = "/timezone/America/New_York/transitions?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z";
const CLIENT = "203.0.113.7";



/** wrk against `url` (a Lua script may vary the path); the server's CPU microseconds per request. */
function wrk(pid: number, url: string, args: string[] = []): { rps: number; cpuMicros: number; requests: number; non2xx: number } {
  const before = cpuMicros(pid);
  const out = Bun.spawnSync(["wrk", "-t1", "-c8", `-d${SECONDS}s`, ...args, url], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
  const after = cpuMicros(pid);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    cpuMicros: (after - before) / requests,
    requests,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

/** A wrk script asking the full range with a new `to` (unix seconds) each time: no two requests alike. */
function newWindowScript(dir: string, headers: Record<string, string>): string {
  const path = join(dir, "new-window.lua");
  const lines = Object.entries(headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`);
  writeFileSync(path, `${lines.join("\n")}
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, string.format("/timezone/America/New_York/transitions?from=0001-01-01T00:00:00Z&to=%d", 253402300799 - n))
end
`);
  return path;
}

export async function benchCostlyAnswers(dataDir: string): Promise<void> {
  if (!Bun.which("wrk")) {
    console.log("costly answers: skipped, wrk is not installed");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "zonetime-bench-cost-"));
  const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT: "120/60s", TRUST_PROXY: "loopback" });
  try {
    const first = await fetch(`${service.url}${FULL}`);
    const bytes = (await first.arrayBuffer()).byteLength;
    const etag = first.headers.get("etag")!;
    console.log(`costly answers (wrk -t1 -c8 -d${SECONDS}s, one service process; full-range transitions: ${bytes} bytes)`);
    const built = wrk(service.child.pid, service.url, ["-s", newWindowScript(dir, {})]);
    const cached = wrk(service.child.pid, `${service.url}${FULL}`);
    const revalidated = wrk(service.child.pid, `${service.url}${FULL}`, ["-H", `If-None-Match: ${etag}`]);
    const cheap = wrk(service.child.pid, `${service.url}/timezone/UTC`);
    const line = (label: string, r: ReturnType<typeof wrk>) =>
      console.log(`  ${label.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s ${r.cpuMicros.toFixed(1).padStart(8)} cpu us/req ${(r.cpuMicros / built.cpuMicros).toFixed(3).padStart(7)} x built`);
    line("200, built (a new window each request)", built);
    line("200, from the answer cache (same window)", cached);
    line("304, If-None-Match", revalidated);
    line("/timezone/UTC (a time object)", cheap);
    console.log(`  goal: 304 < 1/10 of the built 200: ${revalidated.cpuMicros < built.cpuMicros / 10 ? "met" : "NOT met"}`);

    // One client at the default limit, as fast as the limit lets it, a new window each time.
    const used: number[] = [cpuMicros(service.child.pid)];
    const sampler = setInterval(() => used.push(cpuMicros(service.child.pid)), 1000);
    const started = performance.now();
    let answered = 0;
    let refused = 0;
    for (let n = 1; performance.now() - started < COST_SECONDS * 1000; n++) {
      const r = await fetch(`${service.url}/timezone/America/New_York/transitions?from=0001-01-01T00:00:00Z&to=${253402300799 - n}`, { headers: { "X-Forwarded-For": CLIENT } });
      await r.arrayBuffer();
      if (r.status === 200) answered++;
      else refused++;
      const remaining = Number(/r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1] ?? 0);
      const wait = Number(/t=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1] ?? 1);
      if (remaining === 0) await Bun.sleep(Math.min(wait * 1000, COST_SECONDS * 1000 - (performance.now() - started)));
    }
    clearInterval(sampler);
    used.push(cpuMicros(service.child.pid));
    const elapsed = (performance.now() - started) / 1000;
    const perSecond = used.slice(1).map((t, i) => (t - used[i]!) / 1e6);
    const share = (used.at(-1)! - used[0]!) / 1e6 / elapsed;
    console.log(`  one client at RATE_LIMIT=120/60s, costliest query as fast as allowed, ${elapsed.toFixed(0)} s: ${answered} answered, ${refused} refused;`
      + ` server CPU ${(share * 100).toFixed(2)}% of a core on average, ${(Math.max(...perSecond) * 100).toFixed(1)}% in the busiest second`);
    console.log(`  goal: under 10% of one core: ${share < 0.1 && Math.max(...perSecond) < 0.1 ? "met" : "NOT met"}`);
    const hammer = wrk(service.child.pid, service.url, ["-s", newWindowScript(dir, { "X-Forwarded-For": "203.0.113.8" })]);
    console.log(`  the same client ignoring its 429s (wrk, full speed): ${hammer.requests} requests, ${hammer.requests - hammer.non2xx} answered;`
      + ` ${hammer.cpuMicros.toFixed(1)} cpu us/req (a refusal costs what a time object does: the limit cannot stop a flood of requests, only what each costs)`);
  } finally {
    service.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchCostlyAnswers(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
