// With WORKERS > 1: one worker process per core, all listening on the same port
// (reusePort: the kernel spreads connections). A worker that dies is replaced at once
// (backing off to at most 1.5 s when it keeps dying) while the others keep serving.
// The supervisor reads and checks the tables into sealed memory (table-set.ts) and every
// worker maps those same pages (table-handover.ts). SIGHUP (to the supervisor, or to a
// worker, which passes it on) makes the supervisor read and check a new set, then hand it to
// every worker, which checks it again and takes it with its website; a set that fails its
// check is refused and every worker keeps the one it has. SIGTERM drains every worker,
// then the supervisor exits. Workers' metrics meet here
// (ops/metrics-exchange.ts), so that any worker can answer /metrics for all of them, and
// their rate limit table is memory shared from here (http/rate-limiter.ts), so that the
// limit holds for the instance. Before any worker starts, the port is checked free
// (service.ts, claimPorts): reusePort is shared among this instance's workers only.

import type { Subprocess } from "bun";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { takeOverHangup } from "./early-hangup.ts";
import { decodeTables } from "./load-data.ts";
import { ReloadQueue } from "./reload-queue.ts";
import { inheritance, TABLES_VARIABLE, type HandoverMessage } from "./table-handover.ts";
import { readTableSet, type TableSet } from "./table-set.ts";
import { RATE_TABLE_BYTES } from "../http/limits/rate-limiter.ts";
import { logError, logEvent } from "../core/log.ts";
import { METRICS_BOARD_BYTES, MetricsBoard } from "../ops/metrics-board.ts";
import { MetricsCollector, type ExchangeMessage } from "../ops/metrics-exchange.ts";
import { createSharedMemory } from "./shared-memory.ts";
import { claimPorts } from "./service.ts";

/** Workers run the one entry point; this variable, set only by the supervisor, makes it a worker. */
const ENTRY = join(import.meta.dir, "main.ts");
export const WORKER_ID_VARIABLE = "ZONETIME_WORKER_ID";
/** "1": the worker finds the instance's shared memory (rate table, metrics board) on fd 3. */
export const SHARED_RATE_TABLE_VARIABLE = "ZONETIME_SHARED_RATE_TABLE";
const MAX_BACKOFF_MS = 1500;
/** A worker that lived this long resets its backoff: it was not crash-looping. */
const STABLE_MS = 10_000;
/** How long a replaced set's descriptors stay open, for a worker still opening them. */
const RETIRE_SET_MS = 10_000;

type Held = Pick<TableSet, "manifest" | "descriptors" | "close">;

/** A set read into sealed memory and checked as a worker will check it; only its descriptors are kept (the mappings go with the GC). */
async function readChecked(dataDir: string): Promise<Held> {
  const set = await readTableSet(dataDir, { keepDescriptors: true });
  try {
    decodeTables(set);
  } catch (error) {
    set.close();
    throw error;
  }
  const { manifest, descriptors, close } = set;
  return { manifest, descriptors, close };
}

/** The memory an instance's processes share: the rate table, then the metrics board. */
export const METRICS_BOARD_OFFSET = RATE_TABLE_BYTES;
export const SHARED_MEMORY_BYTES = RATE_TABLE_BYTES + METRICS_BOARD_BYTES;

/** New shared memory for the workers, or null where it cannot be made (no mmap through bun:ffi). */
function sharedMemory(): { fd: number; buffer: ArrayBuffer } | null {
  try {
    return createSharedMemory(SHARED_MEMORY_BYTES);
  } catch (error) {
    logError("shared_memory_failed", error);
    return null;
  }
}

export async function supervise(config: Config): Promise<void> {
  const workers = new Map<number, Subprocess>();
  const restarts = new Map<number, { count: number; startedAt: number }>();
  let stopping = false;
  // The set being served, as its sealed descriptors: the supervisor keeps no mapping of its own once it has checked it.
  let current: Held | null = null;
  // One reload at a time, coalesced (reload-queue.ts): read and check a new set, then hand it over.
  const reloads = new ReloadQueue(async () => {
    try {
      const next = await readChecked(config.dataDir);
      const previous = current;
      current = next;
      const message: HandoverMessage = { type: "tables", set: next.descriptors, supervisor: process.pid };
      for (const child of workers.values()) {
        try {
          child.send(message);
        } catch {
          // exiting: its replacement inherits the new set
        }
      }
      if (previous) setTimeout(() => previous.close(), RETIRE_SET_MS).unref();
      logEvent("tables_handed_over", { tzdb: next.manifest.tzdb.version, builtAt: next.manifest.builtAt, workers: workers.size, shared: next.descriptors !== null });
      return true;
    } catch (error) {
      logError("reload_failed", error, { supervisor: process.pid, keptTzdb: current?.manifest.tzdb.version ?? null });
      return false;
    }
  });
  let reloadWhenStarted = false;
  // Signals first: until a SIGHUP handler exists a SIGHUP kills the process, and the data
  // check below takes a while. A SIGHUP meanwhile is acted on once the first set is read.
  const hangup = (from: string) => {
    logEvent("signal", { signal: "SIGHUP", from, workers: workers.size, starting: current === null });
    if (current === null) reloadWhenStarted = true;
    else void reloads.request();
  };
  if (takeOverHangup(() => hangup("supervisor"))) hangup("supervisor"); // one came while the modules loaded
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logEvent("signal", { signal, draining: workers.size });
    const children = [...workers.values()];
    for (const child of children) child.kill("SIGTERM");
    const deadline = Bun.sleep((config.drainSeconds + 2) * 1000);
    await Promise.race([Promise.all(children.map((c) => c.exited)), deadline]);
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    logEvent("stopped", { supervisor: process.pid });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  // Fail fast, with the loader's own message, instead of crash-looping workers.
  current = await readChecked(config.dataDir);
  if (stopping) return;
  const ports = config.sharePort ? { port: config.port, redirectPort: config.httpRedirectPort } : claimPorts(config);
  const shared = sharedMemory();
  const rateTable = shared?.fd ?? null;
  const metrics = new MetricsCollector(shared === null ? null : new MetricsBoard(shared.buffer, METRICS_BOARD_OFFSET));

  const spawn = (slot: number) => {
    const startedAt = Date.now();
    const tables = current?.descriptors ? inheritance(current.descriptors) : null;
    // The same Bun binary as this process, whatever PATH holds (or lacks).
    const child = Bun.spawn([process.execPath, ENTRY], {
      env: {
        ...process.env,
        [WORKER_ID_VARIABLE]: String(slot),
        // PORT=0 was resolved to one port by claimPorts: every worker must bind that one.
        PORT: String(ports.port),
        ...(ports.redirectPort !== null ? { HTTP_REDIRECT_PORT: String(ports.redirectPort) } : {}),
        [SHARED_RATE_TABLE_VARIABLE]: rateTable === null ? "0" : "1",
        [TABLES_VARIABLE]: tables?.variable ?? "",
      },
      // fd 3: the shared memory (process/shared-memory.ts, INHERITED_FD); from fd 4: the current sealed set (table-handover.ts).
      stdio: ["ignore", "inherit", "inherit", rateTable ?? "ignore", ...(tables?.stdio ?? [])],
      ipc(message: ExchangeMessage | HandoverMessage, child) {
        if (message?.type === "reload") hangup(`worker ${slot}`);
        else metrics.onMessage(child, message as ExchangeMessage);
      },
      onExit(_proc, exitCode, signalCode) {
        workers.delete(slot);
        metrics.retire(_proc.pid);
        if (stopping) return;
        const history = restarts.get(slot) ?? { count: 0, startedAt };
        const count = Date.now() - history.startedAt > STABLE_MS ? 0 : history.count + 1;
        const delay = Math.min(MAX_BACKOFF_MS, count === 0 ? 0 : 100 * 2 ** (count - 1));
        logEvent("worker_exited", { worker: slot, pid: _proc.pid, exitCode, signal: signalCode, restartInMs: delay });
        setTimeout(() => {
          if (!stopping) spawn(slot);
        }, delay);
        restarts.set(slot, { count, startedAt: Date.now() + delay });
      },
    });
    workers.set(slot, child);
    restarts.set(slot, { count: restarts.get(slot)?.count ?? 0, startedAt });
    logEvent("worker_started", { worker: slot, pid: child.pid });
  };

  for (let slot = 0; slot < config.workers; slot++) spawn(slot);
  Bun.gc(true); // once: the supervisor's own mappings of the set it checked are given back (the workers map it)
  if (reloadWhenStarted) void reloads.request();
  if (config.rateLimit && rateTable === null) logEvent("rate_limit_per_worker", { workers: config.workers, why: "no shared memory here: each worker limits on its own" });
  logEvent("supervising", { workers: config.workers, pid: process.pid });
}
