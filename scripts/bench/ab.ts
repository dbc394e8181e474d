// `bun scripts/bench/ab.ts OLD_CHECKOUT [NEW_CHECKOUT]`: two checkouts of zonetime (each
// with its generated/ built) served side by side, one worker each, both pinned to CPU 1
// where taskset exists, their two wrk on CPU 0; BENCH_PASSES passes, each with both
// services started anew; per endpoint, BENCH_ROUNDS rounds a pass in which wrk loads both
// services at once, so that they share one CPU in the same seconds and whatever the machine
// does in those seconds reaches both alike. Printed: the medians over all passes with
// new/old ratios of requests/s and of the server's CPU per request (of the medians, and the
// median of each round's own ratio, "paired"), then each service's RSS (the median of
// readings right after each round: one lands before or after a GC at random).
// For a change to the request path: no endpoint should lose more than 3%.
//
// Why at once, not in turns: this 2-core VM drifts by several percent from one second to
// the next, and rounds taken in turns (old, then new) carried that drift into each ratio:
// two copies of one checkout read 0.965-1.001 over a pass, and 0.95-1.08 from one round to
// the next. Loaded at once, with CPU read from each process's CPU-time clock (cpuMicros),
// the same two copies read 0.982-1.019 on 26 of 27 endpoints (median 1.003), most rounds
// within 1%; /openapi.json, 22 us of CPU a request, spreads most (1.046, IQR 0.964-1.063).

import { cpuMicros, pinned, PIN, startListening, type Listening } from "./bench-process.ts";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { median } from "./timing.ts";
import { ENDPOINTS } from "./http.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Each pass starts both services afresh (see `pass`). */
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

function start(checkout: string): Promise<Listening> {
  return startListening(pinned(1, [process.execPath, join(checkout, "server", "process", "main.ts")]), {
    PORT: "0", HOST: "127.0.0.1", WORKERS: "1", RATE_LIMIT: "off", DATA_DIR: join(checkout, "generated"), SITE_DIR: join(checkout, "site", "dist"),
  });
}

/** wrk's output for `path` on `server`. */
async function wrk(server: Listening, path: string): Promise<string> {
  const child = Bun.spawn(pinned(0, ["wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, `${server.url}${path}`]), { stdout: "pipe", stderr: "pipe" });
  return await new Response(child.stdout).text();
}

/** One round: both services loaded at once, each one's requests/s and CPU microseconds per request. */
async function together(oldService: Listening, newService: Listening, path: string): Promise<{ old: Run; new: Run }> {
  const before = [cpuMicros(oldService.child.pid), cpuMicros(newService.child.pid)];
  const outs = await Promise.all([wrk(oldService, path), wrk(newService, path)]);
  const after = [cpuMicros(oldService.child.pid), cpuMicros(newService.child.pid)];
  const run = (i: number): Run => {
    const requests = Number(/(\d+) requests in/.exec(outs[i]!)?.[1] ?? NaN);
    return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(outs[i]!)?.[1] ?? NaN), cpu: (after[i]! - before[i]!) / requests };
  };
  return { old: run(0), new: run(1) };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

const [oldDir, newDir = join(import.meta.dir, "..", "..")] = process.argv.slice(2).map((d) => resolve(d));
if (oldDir === undefined) throw new Error("usage: bun scripts/bench/ab.ts OLD_CHECKOUT [NEW_CHECKOUT]");

type Run = { rps: number; cpu: number };
const runs = new Map<string, { old: Run[]; new: Run[] }>(ENDPOINTS.map((path) => [path, { old: [], new: [] }]));
const rss = { old: [] as number[], new: [] as number[] };
const atRest = { old: [] as number[], new: [] as number[] };

/**
 * One pass: both services started afresh, then every endpoint's rounds. A process has its
 * own luck (where its heap and code land, what its JIT decides) that no round cancels: with
 * rounds in turns, two copies of one checkout read 0.965-1.001 over one pass, the one
 * started second cheaper. So each pass starts the two anew, odd passes the new one first,
 * and the rounds of all passes are pooled.
 */
async function pass(index: number): Promise<void> {
  const newFirst = index % 2 === 1;
  const first = await start(newFirst ? newDir! : oldDir!);
  const second = await start(newFirst ? oldDir! : newDir!).catch((error) => {
    first.child.kill();
    throw error;
  });
  const [oldService, newService] = newFirst ? [second, first] : [first, second];
  try {
    await Bun.sleep(1000);
    atRest.old.push(rssMb(oldService.child.pid));
    atRest.new.push(rssMb(newService.child.pid));
    for (const path of ENDPOINTS) {
      await together(oldService, newService, path); // warm
      const kept = runs.get(path)!;
      for (let r = 0; r < ROUNDS; r++) {
        const round = await together(oldService, newService, path);
        kept.old.push(round.old);
        kept.new.push(round.new);
        rss.old.push(rssMb(oldService.child.pid));
        rss.new.push(rssMb(newService.child.pid));
      }
    }
  } finally {
    oldService.child.kill();
    newService.child.kill();
  }
}

console.log(`A/B: ${oldDir} (old) and ${newDir} (new); wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${PASSES} passes of fresh processes (odd ones start the new first), ${ROUNDS} rounds each loading both at once${PIN ? ", pinned" : ""}`);
for (let p = 0; p < PASSES; p++) await pass(p);
console.log(`  ${"endpoint".padEnd(66)} ${"old req/s".padStart(10)} ${"new req/s".padStart(10)} ${"ratio".padStart(6)} ${"paired".padStart(6)} ${"old cpu".padStart(8)} ${"new cpu".padStart(8)} ${"ratio".padStart(6)} ${"paired".padStart(6)} ${"paired IQR".padStart(12)}`);
for (const [path, kept] of runs) {
  const rps = (xs: Run[]) => median(xs.map((x) => x.rps));
  const cpu = (xs: Run[]) => median(xs.map((x) => x.cpu));
  // Each round's new/old, both measured in the same seconds: the machine's drift between rounds cancels.
  const pairs = (of: (x: Run) => number) => kept.new.map((x, r) => of(x) / of(kept.old[r]!)).sort((a, b) => a - b);
  const paired = (of: (x: Run) => number) => median(pairs(of));
  // The middle half of the rounds' CPU ratios: how far one round reads from the next.
  const cpuPairs = pairs((x) => x.cpu);
  const iqr = `${cpuPairs[Math.floor((cpuPairs.length - 1) / 4)]!.toFixed(3)}-${cpuPairs[Math.floor(((cpuPairs.length - 1) * 3) / 4)]!.toFixed(3)}`;
  console.log(`  ${path.slice(0, 66).padEnd(66)} ${rps(kept.old).toFixed(0).padStart(10)} ${rps(kept.new).toFixed(0).padStart(10)} ${(rps(kept.new) / rps(kept.old)).toFixed(3).padStart(6)} ${paired((x) => x.rps).toFixed(3).padStart(6)} ${cpu(kept.old).toFixed(1).padStart(8)} ${cpu(kept.new).toFixed(1).padStart(8)} ${(cpu(kept.new) / cpu(kept.old)).toFixed(3).padStart(6)} ${paired((x) => x.cpu).toFixed(3).padStart(6)} ${iqr.padStart(12)}`);
}
const spread = (xs: number[]) => `${median(xs).toFixed(1)} MB (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
console.log(`  RSS at rest (started, idle 1 s), median of ${PASSES} passes: old ${median(atRest.old).toFixed(1)} MB, new ${median(atRest.new).toFixed(1)} MB`);
console.log(`  RSS, median of ${rss.old.length} readings after runs: old ${spread(rss.old)}, new ${spread(rss.new)}`);
