// `bun run bench` (HTTP part): the service and a minimal Bun.serve baseline answering a
// constant body of the same size, each in its own process, loaded by wrk with the same
// settings in the same run. Prints requests/s, p50 and p99 per endpoint and its ratio to
// the baseline, which is measured right before each endpoint (a shared machine drifts).
// Where taskset exists, wrk runs on CPU 0 and the servers on CPU 1, so neither steals
// the other's core.

import type { Subprocess } from "bun";
import { join } from "node:path";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ENDPOINTS = ["/timezone/Europe/London", "/timezone/America/Argentina/Salta", "/ip/8.8.8.8", "/timezone"];

interface WrkResult {
  rps: number;
  p50: string;
  p99: string;
  errors: string;
}

const PIN = Bun.which("taskset") !== null && (await import("node:os")).availableParallelism() >= 2;
const pinned = (cpu: number, args: string[]) => (PIN ? ["taskset", "-c", String(cpu), ...args] : args);

async function startProcess(args: string[], env: Record<string, string>): Promise<{ child: Subprocess; url: string }> {
  const child = Bun.spawn(pinned(1, args), { env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!/"event":"listening"[^\n]*\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args.join(" ")} exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void (async () => {
    for await (const _ of child.stdout) { /* drain */ }
  })().catch(() => {});
  return { child, url: /"url":"([^"]+)"/.exec(text)![1]! };
}

function wrk(url: string): WrkResult {
  const result = Bun.spawnSync(pinned(0, ["wrk", "-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", url]), { stdout: "pipe", stderr: "pipe" });
  const out = result.stdout.toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = /\s50%\s+(\S+)/.exec(out)?.[1] ?? "?";
  const p99 = /\s99%\s+(\S+)/.exec(out)?.[1] ?? "?";
  const socket = /Socket errors: ([^\n]+)/.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, p50, p99, errors: [socket ? `socket errors: ${socket}` : "", non2xx ? `non-2xx: ${non2xx}` : ""].filter(Boolean).join("; ") || "none" };
}

export async function benchHttp(dataDir: string): Promise<void> {
  if (!Bun.which("wrk")) {
    console.log("http: skipped, wrk is not installed (apt-get install wrk)");
    return;
  }
  const root = join(import.meta.dir, "..", "..");
  const service = await startProcess(["bun", join(root, "server", "run.ts")], { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1" });
  const sample = await (await fetch(`${service.url}/timezone/Europe/London`)).text();
  const baseline = await startProcess(["bun", join(import.meta.dir, "baseline-server.ts")], { BODY_BYTES: String(sample.length) });
  try {
    console.log(`http (wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, one service process, loopback${PIN ? ", wrk on CPU 0, servers on CPU 1" : ""})`);
    console.log("  endpoint                               req/s      p50       p99    x baseline  errors");
    const row = (label: string, r: WrkResult, ratio: string) =>
      console.log(`  ${label.padEnd(36)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.padStart(9)} ${r.p99.padStart(9)}   ${ratio.padStart(8)}  ${r.errors}`);
    for (const path of ENDPOINTS) {
      const base = wrk(baseline.url);
      const r = wrk(`${service.url}${path}`);
      row(`  baseline (constant ${sample.length}-byte body)`, base, "");
      row(path, r, `${((r.rps / base.rps) * 100).toFixed(0)}%`);
    }
    console.log("  goals: /timezone/Europe/London >= 85% of baseline, /ip/8.8.8.8 >= 80%");
  } finally {
    service.child.kill();
    baseline.child.kill();
  }
}

if (import.meta.main) await benchHttp(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
