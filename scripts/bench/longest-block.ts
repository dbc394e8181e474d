// `bun scripts/bench/longest-block.ts` (part of `bun run bench`): the longest a worker is
// held by one request, for every route's costliest query (costliest-queries.ts), in process.
// Issue 30: "no single build may block a worker for more than a few milliseconds" (5 ms).
//
// Each request goes through the fetch handler as the server calls it. An answer made at once
// holds the worker for the handler's call; one made later (RouteRow.later) for the longest
// gap between the ticks of a setImmediate chain that runs while the answer is being made:
// it ticks whenever the event loop is free. For a device list that is its longest turn; for
// what releases changed and the feeds, made on the history thread, what the serving thread
// itself does meanwhile (hand the job over, take the body back) and whatever the machine's
// other threads take from it. (A timer chain
// counted its own least delay, about 1 ms, as held.) The releases feed, once per worker, is
// measured first, on the fresh worker. The p99 is the row's figure.
//
// The floor, first and last: the same chain while nothing is made, in 200 windows of 50 ms.
// On this 2-core VM an idle worker is held p99 5-10 ms, up to 16 (the runtime's collector
// and compiler threads, the machine's own): a row is judged by what it adds to that.
// Run it on every core the worker would have, not pinned to one: pinned, the collector's and
// the compiler's threads take turns on the worker's own core (own pairs' p99 12 ms pinned,
// 2-3 ms not).

import { dlopen } from "bun:ffi";
import { join } from "node:path";
import { loadData } from "../../server/process/load-data.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { readConfig } from "../../server/process/config.ts";
import { realtimeClock } from "../../server/core/clock.ts";
import { costliestQueries, type Row } from "./costliest-queries.ts";
import { buildTurns, TURN_BUCKETS } from "../../server/core/in-turns.ts";

const LIMIT_MS = 5;

/** Windows of FLOOR_MS in which nothing is made: the floor's samples. */
const FLOOR_WINDOWS = 200;
const FLOOR_MS = 50;

// This thread's CPU time (Linux's clock_gettime(CLOCK_THREAD_CPUTIME_ID); NaN elsewhere): of a
// hold, what the worker's own thread ran (our code, and whatever the runtime does on it), apart
// from the time the system ran other threads instead (the runtime's own, other processes).
const CLOCK_THREAD_CPUTIME_ID = 3;
const clockGettime = process.platform === "linux" ? dlopen("libc.so.6", { clock_gettime: { args: ["i32", "ptr"], returns: "i32" } }).symbols.clock_gettime : null;
const timespec = new BigInt64Array(2);
const threadCpuMs = () => {
  if (clockGettime === null) return NaN;
  clockGettime(CLOCK_THREAD_CPUTIME_ID, timespec);
  return Number(timespec[0]) * 1000 + Number(timespec[1]) / 1e6;
};

interface Held { ms: number; cpuMs: number }

/**
 * The longest the worker was held while `answer` was being made (ms): the call itself, or the
 * longest gap between the chain's ticks; and the most CPU its thread ran in any one such hold.
 */
async function heldFor(call: () => Response | Promise<Response>): Promise<Held> {
  const start = performance.now();
  const cpuStart = threadCpuMs();
  const answer = call();
  const called = performance.now() - start;
  const calledCpu = threadCpuMs() - cpuStart;
  if (!(answer instanceof Promise)) {
    await answer.arrayBuffer();
    return { ms: called, cpuMs: calledCpu };
  }
  const held = { ms: called, cpuMs: calledCpu };
  let done = false;
  let last = performance.now();
  let lastCpu = threadCpuMs();
  const tick = () => {
    const now = performance.now();
    const cpu = threadCpuMs();
    held.ms = Math.max(held.ms, now - last);
    held.cpuMs = Math.max(held.cpuMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  const made = await answer;
  done = true;
  tick();
  await made.arrayBuffer();
  return held;
}

export async function benchLongestBlock(dataDir: string): Promise<void> {
  const data = await loadData(dataDir);
  const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: join(dataDir, "no-site") });
  const handler = createFetchHandler(createAppState(data, realtimeClock, config));
  const ask = (path: string, body?: string) => () => handler(new Request(`http://bench${path}`, body === undefined ? {} : { method: "POST", body, headers: { "Content-Type": "application/json" } }), null);
  const releases = data.history.releases.map((r) => r.release);
  console.log(`longest block: the longest one request holds the worker, in process, per route's costliest query (limit ${LIMIT_MS} ms)`);
  console.log("  (turns: of the answers made in turns, as /metrics counts them (zonetime_build_turn_seconds): how many, how many held the worker over 5 ms)");
  console.log(`  ${"query".padEnd(46)} ${"median ms".padStart(9)} ${"p99 ms".padStart(7)} ${"max ms".padStart(7)} ${"cpu p99".padStart(8)} ${"cpu max".padStart(8)} ${"turns".padStart(7)} ${"> 5 ms".padStart(6)}`);
  const over5 = TURN_BUCKETS.indexOf(0.005) + 1; // the first bucket past 5 ms
  const turnsOver = (t: { counts: number[] }) => t.counts.slice(over5).reduce((a, b) => a + b, 0);
  const turnCount = (t: { counts: number[] }) => t.counts.reduce((a, b) => a + b, 0);
  let turnsBefore = buildTurns();
  const report = (label: string, holds: Held[]) => {
    const held = holds.map((h) => h.ms).sort((a, b) => a - b);
    const cpu = holds.map((h) => h.cpuMs).sort((a, b) => a - b);
    const max = held[held.length - 1]!;
    const p99 = held[Math.floor((held.length - 1) * 0.99)]!;
    const turns = buildTurns();
    const made = turnCount(turns) - turnCount(turnsBefore);
    const over = made === 0 ? "" : String(turnsOver(turns) - turnsOver(turnsBefore));
    turnsBefore = turns;
    console.log(`  ${label.padEnd(46)} ${held[held.length >> 1]!.toFixed(2).padStart(9)} ${p99.toFixed(2).padStart(7)} ${max.toFixed(2).padStart(7)} ${cpu[Math.floor((cpu.length - 1) * 0.99)]!.toFixed(2).padStart(8)} ${cpu[cpu.length - 1]!.toFixed(2).padStart(8)} ${(made === 0 ? "" : String(made)).padStart(7)} ${over.padStart(6)}${p99 > LIMIT_MS ? "  OVER" : ""}`);
  };
  const floor = async (when: string) => {
    const held: Held[] = [];
    for (let n = 0; n < FLOOR_WINDOWS; n++) held.push(await heldFor(() => Bun.sleep(FLOOR_MS).then(() => new Response(null))));
    report(`floor ${when}: nothing made, ${FLOOR_WINDOWS} x ${FLOOR_MS} ms`, held);
  };
  await Bun.sleep(2000); // the load's own garbage collected
  await floor("first");
  report("/tzdb/feed.atom on a fresh worker", [await heldFor(ask("/tzdb/feed.atom"))]);
  for (const row of costliestQueries(releases)) {
    const count = Math.min(row.count, 200);
    // Warmed (compiled) on other queries of the same shape than those measured.
    for (let n = 0; n < 20; n++) await heldFor(ask(row.request(count + n).path, row.request(count + n).body));
    turnsBefore = buildTurns();
    const held: Held[] = [];
    for (let n = 0; n < count; n++) held.push(await heldFor(ask(row.request(n).path, row.request(n).body)));
    report(row.label, held);
  }
  await floor("last");
}

if (import.meta.main) await benchLongestBlock(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
