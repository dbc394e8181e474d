// `bun scripts/bench/hostile-load.ts` (part of `bun run bench`): what hostile clients take
// from everyone else (issue 30). The service runs as an operator runs it (WORKERS=2, the
// default RATE_LIMIT, TRUST_PROXY=loopback so that X-Forwarded-For stands for remote
// clients), pinned to CPU 1; wrk asks /timezone/Europe/London from CPU 0. Each round runs
// wrk alone, then wrk alongside one attack, alternating, and reports London's throughput
// under the attack as a ratio to the run alone in the same round, with the workers' RSS
// growth. Attacks:
// - uploads: the attack, 8 chunked 120 MB POST bodies at once (again every second),
//   and 3 connections dripping a byte a second;
// - costly: 20 clients asking /device?at= for random instants (years 0001-0064 and 1800-2100 in
//   turn) and TimeZoneDB's zone list, each as fast as the limit lets it (waiting out each
//   429's Retry-After); the first round includes their first burst, spent at once. A client that ignores its
//   429s is a flood of cheap requests, which no price stops (costly-answers.ts measures what
//   a refusal costs).
// - releases: 20 clients the same way on the time machine: what changed between two random
//   releases (far pairs are the costliest build), device lists and time objects as a random
//   release gave them.

import { PIN, pinned, startService } from "./bench-process.ts";
import { connect } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `BENCH_ATTACKS=costly` (or `uploads`, `releases`): some kinds only. */
const ATTACKS = (process.env.BENCH_ATTACKS ?? "uploads,costly,releases").split(",");
const YEAR_1 = -62135596800; // 0001-01-01T00:00:00Z
const YEAR_65 = -60115910400; // 0065-01-01T00:00:00Z
const YEAR_1800 = -5364662400; // 1800-01-01T00:00:00Z
const YEAR_2101 = 4133980800; // 2101-01-01T00:00:00Z

function wrkLondon(url: string): Promise<number> {
  const child = Bun.spawn(pinned(0, ["wrk", "-t1", "-c8", `-d${SECONDS}s`, `${url}/timezone/Europe/London`]), { stdout: "pipe", stderr: "pipe" });
  return new Response(child.stdout).text().then((out) => Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN));
}

/** The RSS of the service's processes (the supervisor and its workers), in kB. */
function rssKb(pid: number): number {
  const pids = [pid, ...readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)];
  return pids.reduce((sum, p) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0), 0);
}

function upload(port: number, bytes: number, stop: () => boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x61), Buffer.from("\r\n")]);
    let sent = 0;
    let answer = "";
    const pump = () => {
      while (sent < bytes && !stop()) {
        sent += 0x10000;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(`POST /api/Conversion/ConvertTimeZone HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
      pump();
    });
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    const done = () => resolve(answer.slice(9, 12) || "reset");
    socket.on("close", done);
    socket.on("error", done);
  });
}

function drip(port: number, until: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const timer = setInterval(() => (Date.now() < until ? socket.write("1\r\na\r\n") : socket.destroy()), 1000);
    socket.on("connect", () => socket.write(`POST /api/Conversion/ConvertTimeZone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`));
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    const done = () => {
      clearInterval(timer);
      resolve(answer.slice(9, 12) || "none");
    };
    socket.on("close", done);
    socket.on("error", done);
  });
}

/** Uploads for `ms`: 8 at a time, a new 8 every second, and 3 drips. */
async function uploads(port: number, ms: number): Promise<string> {
  const until = Date.now() + ms;
  const statuses: string[] = [];
  const drips = [0, 1, 2].map(() => drip(port, until));
  while (Date.now() < until) {
    const next = Date.now() + 1000;
    statuses.push(...await Promise.all(Array.from({ length: 8 }, () => upload(port, 120_000_000, () => Date.now() > until))));
    await Bun.sleep(Math.max(0, Math.min(next, until) - Date.now()));
  }
  statuses.push(...await Promise.all(drips));
  const counts = new Map<string, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n}x${s}`).join(" ");
}

/** 20 clients, each asking costly answers back to back for `ms`, waiting as each 429 says. */
async function costly(url: string, ms: number): Promise<string> {
  const until = Date.now() + ms;
  const counts = new Map<number, number>();
  await Promise.all(Array.from({ length: 20 }, async (_, c) => {
    for (let n = 0; Date.now() < until; n++) {
      const [from, to] = n % 4 === 0 ? [YEAR_1, YEAR_65] : [YEAR_1800, YEAR_2101];
      const path = n % 2 === 0 ? `/device?at=${Math.floor(from + Math.random() * (to - from))}` : "/v2.1/list-time-zone?key=K&format=json";
      const r = await fetch(`${url}${path}`, { headers: { "X-Forwarded-For": `198.51.100.${c + 1}` } });
      await r.arrayBuffer();
      counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
      if (r.status === 429) await Bun.sleep(Math.min(Number(r.headers.get("retry-after") ?? 1) * 1000, until - Date.now()));
    }
  }));
  return [...counts].map(([s, n]) => `${n}x${s}`).join(" ");
}

/** 20 clients, each asking the time machine's costly answers for random releases, waiting as each 429 says. */
async function releases(url: string, ms: number): Promise<string> {
  const served = ((await (await fetch(`${url}/tzdb`)).json()) as { releases: { release: string }[] }).releases.map((r) => r.release);
  const pick = () => Math.floor(Math.random() * served.length);
  const until = Date.now() + ms;
  const counts = new Map<number, number>();
  await Promise.all(Array.from({ length: 20 }, async (_, c) => {
    for (let n = 0; Date.now() < until; n++) {
      // Newest first: the release at the smaller index, since the one at the larger.
      const newer = Math.floor(Math.random() * (served.length - 1));
      const older = Math.min(served.length - 1, newer + 1 + pick());
      const path = [
        `/tzdb/${served[newer]}/changes?since=${served[older]}`,
        `/device?tzdb=${served[pick()]}&at=${Math.floor(YEAR_1800 + Math.random() * (YEAR_2101 - YEAR_1800))}`,
        `/timezone/Europe/London?tzdb=${served[pick()]}`,
      ][n % 3]!;
      const r = await fetch(`${url}${path}`, { headers: { "X-Forwarded-For": `198.51.100.${c + 101}` } });
      await r.arrayBuffer();
      counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
      if (r.status === 429) await Bun.sleep(Math.min(Number(r.headers.get("retry-after") ?? 1) * 1000, until - Date.now()));
    }
  }));
  return [...counts].map(([s, n]) => `${n}x${s}`).join(" ");
}

export async function benchHostileLoad(dataDir: string): Promise<void> {
  if (!Bun.which("wrk")) {
    console.log("hostile load: skipped, wrk is not installed");
    return;
  }
  const service = await startService({ DATA_DIR: dataDir, WORKERS: "2", TRUST_PROXY: "loopback" }, { cpu: 1 });
  // The attackers (this process) on wrk's CPU, not the service's: a remote attacker's own
  // work is not the service's loss (they still take their share from wrk).
  if (PIN) Bun.spawnSync(["taskset", "-a", "-p", "-c", "0", String(process.pid)], { stdout: "ignore" });
  const port = Number(new URL(service.url).port);
  try {
    await Bun.sleep(1000); // both workers up
    console.log(`hostile load (WORKERS=2, default RATE_LIMIT, wrk -t1 -c8 -d${SECONDS}s on /timezone/Europe/London${PIN ? ", pinned" : ""}; ${ROUNDS} rounds)`);
    const attacks = [
      ["uploads", () => uploads(port, SECONDS * 1000)],
      ["costly", () => costly(service.url, SECONDS * 1000)],
      ["releases", () => releases(service.url, SECONDS * 1000)],
    ] as const;
    for (const [label, attack] of attacks.filter(([label]) => ATTACKS.includes(label))) {
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const alone = await wrkLondon(service.url);
        const rss = rssKb(service.child.pid);
        const [under, answered] = await Promise.all([wrkLondon(service.url), attack()]);
        const grown = rssKb(service.child.pid) - rss;
        ratios.push(under / alone);
        console.log(`  ${label.padEnd(8)} round ${round + 1}: London ${alone.toFixed(0)} req/s alone, ${under.toFixed(0)} under attack (${((under / alone) * 100).toFixed(1)}%); RSS ${grown >= 0 ? "+" : ""}${(grown / 1024).toFixed(1)} MB; attack answered ${answered}`);
      }
      ratios.sort((a, b) => a - b);
      console.log(`  ${label}: London keeps ${(ratios[Math.floor(ratios.length / 2)]! * 100).toFixed(1)}% of its throughput (median of ${ROUNDS})`);
    }
  } finally {
    service.child.kill();
  }
}

if (import.meta.main) await benchHostileLoad(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
