// What walks release tables (what releases changed, the feeds) is made on the worker's
// history thread (server/http/time-machine/history-builds.ts), never on the thread that
// serves requests. Against a real process: the thread exists once asked for, runs below the
// serving thread's priority, and a reload while it builds neither loses the answer nor
// leaves the old thread behind.

import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";

const stops: (() => Promise<void>)[] = [];
// A drain may take its time on a loaded machine (CI once passed the hook's default 5 s here).
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
}, 30_000);

async function start(): Promise<ServerProcess> {
  const service = await startServerProcess({ DRAIN_GRACE_MS: "0", SITE_DIR: "/nonexistent-site" });
  stops.push(service.stop);
  return service;
}

/** The process's threads and their nice values (proc(5): stat's 19th field, after the parenthesised name). */
function threads(pid: number): { tid: number; nice: number }[] {
  const tasks: { tid: number; nice: number }[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(join(`/proc/${pid}/task`, tid, "stat"), "utf8");
      tasks.push({ tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return tasks;
}

/** The service inherits this process's nice value; its history thread runs 10 steps below (at most 19). */
const SERVING_NICE = getPriority();
const HISTORY_NICE = Math.min(19, SERVING_NICE + 10);
const niceThreads = (pid: number) => threads(pid).filter((t) => t.nice === HISTORY_NICE).length;

async function until(what: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await Bun.sleep(20);
  }
}

const metric = async (url: string, name: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(text.split("\n").find((l) => l.startsWith(`${name}{memo="release_changes"}`))?.split(" ").pop());
};

describe("the history thread", () => {
  test("starts with the first history request, below the serving thread's priority; the rest of the service never starts it", async () => {
    const service = await start();
    const pid = service.child.pid;
    expect((await fetch(`${service.url}/timezone/Europe/London`)).status).toBe(200);
    expect((await fetch(`${service.url}/tzdb`)).status).toBe(200);
    expect(niceThreads(pid)).toBe(0);
    const feed = await fetch(`${service.url}/tzdb/feed.json`);
    expect(feed.status).toBe(200);
    expect(((await feed.json()) as { items: unknown[] }).items.length).toBeGreaterThan(200);
    expect(niceThreads(pid)).toBeGreaterThanOrEqual(1);
    // The serving thread (the process's first) keeps its own priority.
    expect(threads(pid).find((t) => t.tid === pid)!.nice).toBe(SERVING_NICE);
    // The pairs it worked out are its store's, counted in /metrics.
    expect(await metric(service.url, "zonetime_memo_entries")).toBeGreaterThan(200);
  }, 60_000);

  test("a reload while it builds: the answer still comes, the old thread ends, a new one answers after", async () => {
    const service = await start();
    const pid = service.child.pid;
    const far = fetch(`${service.url}/tzdb/2026f/changes?since=1997a`);
    await until(() => niceThreads(pid) >= 1);
    service.child.kill("SIGHUP");
    const answer = await far;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { changed: unknown[] }).changed.length).toBeGreaterThan(100);
    await waitForLog(service.log, '"event":"reloaded"', { timeoutMs: 10_000, child: service.child });
    const missesBefore = await metric(service.url, "zonetime_memo_misses_total");
    await until(() => niceThreads(pid) === 0);
    const again = await fetch(`${service.url}/tzdb/2026f/changes?since=1997a`);
    expect(again.status).toBe(200);
    expect(niceThreads(pid)).toBeGreaterThanOrEqual(1);
    // A new thread's store: counted on from the old one's, never down.
    expect(await metric(service.url, "zonetime_memo_misses_total")).toBeGreaterThan(missesBefore);
    expect(service.log.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  }, 60_000);
});
