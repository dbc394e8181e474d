// `bun run bench` (memory part): the service's memory per worker with every table loaded,
// for WORKERS=1 and WORKERS=2, on 127.0.0.1. Each run starts `bun server/process/main.ts` on
// a free port, sends a few thousand requests over every table (coordinates all over the
// globe, addresses, place names, zones), then reads each worker's /proc/<pid>/smaps: RSS, and PSS (the
// proportional share: a page two workers map counts half in each). Every table (geo.bin,
// places.bin, names.bin, the IP tables) is a sealed memory file mapped read-only by every
// worker, so their pages are shared.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "../paths.ts";

interface Usage {
  rssKb: number;
  pssKb: number;
  anonKb: number;
  /** RSS and PSS of each mapped file of the data folder (geo.bin, ip4.bin, ip6.bin). */
  tables: Map<string, { rssKb: number; pssKb: number }>;
}

/** Totals of /proc/<pid>/smaps, and of each table's mapping. */
function usageOf(pid: number, dataDir: string): Usage {
  const usage: Usage = { rssKb: 0, pssKb: 0, anonKb: 0, tables: new Map() };
  let table: { rssKb: number; pssKb: number } | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const field = /^(\w+):\s+(\d+) kB$/.exec(line);
    if (!field) {
      if (!/^[0-9a-f]+-[0-9a-f]+ /.test(line)) continue;
      const path = line.split(/\s+/).slice(5).join(" ");
      table = undefined;
      // Tables are served from sealed memory files the supervisor fills (server/process/table-set.ts).
      const sealed = /^\/memfd:zonetime:[^:]*:([^ ]+\.bin)/.exec(path);
      if (sealed || (path.startsWith(`${dataDir}/`) && path.endsWith(".bin"))) {
        const name = sealed ? sealed[1]! : path.slice(dataDir.length + 1);
        table = usage.tables.get(name) ?? { rssKb: 0, pssKb: 0 };
        usage.tables.set(name, table);
      }
      continue;
    }
    const kb = Number(field[2]);
    if (field[1] === "Rss") {
      usage.rssKb += kb;
      if (table) table.rssKb += kb;
    } else if (field[1] === "Pss") {
      usage.pssKb += kb;
      if (table) table.pssKb += kb;
    } else if (field[1] === "Anonymous") {
      usage.anonKb += kb;
    }
  }
  return usage;
}

async function measure(workers: number, dataDir: string): Promise<{ pid: number; usage: Usage }[]> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  const child = Bun.spawn(["bun", join(ROOT, "server", "process", "main.ts")], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", WORKERS: String(workers), DATA_DIR: dataDir, SITE_DIR: process.env.BENCH_SITE_DIR ?? "/nonexistent", RATE_LIMIT: "off" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const pids: number[] = [];
  let listening = 0;
  let text = "";
  const reader = child.stdout.getReader();
  const deadline = Date.now() + 120_000;
  while (listening < workers) {
    if (Date.now() > deadline) throw new Error(`the service did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`the service exited: ${text}`);
    text += new TextDecoder().decode(value);
    const lines = text.split("\n");
    text = lines.pop()!;
    for (const line of lines) {
      const event = JSON.parse(line) as { event: string; pid?: number };
      if (event.event === "worker_started") pids.push(event.pid!);
      if (event.event === "listening") listening++;
    }
  }
  void (async () => {
    for (;;) if ((await reader.read()).done) break;
  })();
  if (workers === 1) pids.push(child.pid);
  let seed = 5;
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const word = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => letters[Math.floor(random() * 26)]).join("");
  for (let i = 0; i < 4000; i++) {
    const path = i % 4 === 0 ? `/coordinates/${(random() * 180 - 90).toFixed(4)},${(random() * 360 - 180).toFixed(4)}`
      : i % 4 === 1 ? `/ip/${1 + Math.floor(random() * 222)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.1`
      : i % 4 === 2 ? `/places?q=${word()}&limit=50`
      : "/timezone/Europe/London";
    await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
  }
  const result = pids.map((pid) => ({ pid, usage: usageOf(pid, dataDir) }));
  child.kill("SIGTERM");
  await child.exited;
  return result;
}

export async function benchWorkerMemory(dataDir: string): Promise<void> {
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  console.log("memory per worker, every table loaded (after 4,000 requests over them)");
  for (const workers of [1, 2]) {
    for (const { pid, usage } of await measure(workers, dataDir)) {
      const tables = [...usage.tables].sort().map(([name, t]) => `${name} ${mb(t.rssKb)} (PSS ${mb(t.pssKb)})`).join(", ");
      console.log(`  WORKERS=${workers} pid ${pid}: RSS ${mb(usage.rssKb)}, PSS ${mb(usage.pssKb)}, anonymous ${mb(usage.anonKb)}; mapped: ${tables}`);
    }
  }
}

if (import.meta.main) await benchWorkerMemory(resolve(process.env.DATA_DIR || join(ROOT, "generated")));
