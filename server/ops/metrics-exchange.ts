// How the workers' metrics become one instance's metrics (see metrics.ts), the way
// prom-client's cluster aggregator does it: the worker a scrape reaches asks the
// supervisor, which asks every other worker for its counts at that moment, and answers
// with the sum. Each worker also reports its counts every PUSH_INTERVAL_MS, so that the
// counts of a worker that dies (even by kill -9) are known up to its last second.
//
// The supervisor's sum never goes down, by construction: per live worker it keeps the
// latest counts that process sent (a process's counts only grow, and its messages arrive
// in order), and when a worker exits its latest counts move into a sum of the dead ones.
// A worker that does not answer in time is counted with its latest counts; a scrape the
// supervisor does not answer fails (503) rather than report less than before.

import { droppedLogLines } from "../core/log.ts";
import { emptySnapshot, sumSnapshots, type Metrics, type MetricsSnapshot } from "./metrics.ts";

export const PUSH_INTERVAL_MS = 1000;
/** How long the supervisor waits for the other workers' counts before it sums what it has. */
export const COLLECT_WAIT_MS = 250;
/** How long a worker waits for the supervisor's sum before the scrape fails. */
const SCRAPE_WAIT_MS = 2000;

export type ExchangeMessage =
  /** worker -> supervisor: its counts; `id` when answering a `report` request. */
  | { type: "metrics"; snapshot: MetricsSnapshot; id?: number }
  /** worker -> supervisor: a scrape arrived; here are my counts, send me the instance's. */
  | { type: "collect"; id: number; snapshot: MetricsSnapshot }
  /** supervisor -> worker: send your counts now. */
  | { type: "report"; id: number }
  /** supervisor -> worker: the instance's counts, for the scrape `id`. */
  | { type: "collected"; id: number; total: MetricsSnapshot };

function send(message: ExchangeMessage): boolean {
  try {
    process.send!(message);
    return true;
  } catch {
    return false; // the supervisor is gone (the channel closed): serving matters more than counting
  }
}

/**
 * Worker side: reports its counts and answers the supervisor's requests. Returns what a
 * scrape calls for the instance's counts, or null without an IPC channel (running alone).
 */
export function exchangeWithSupervisor(metrics: Metrics): (() => Promise<MetricsSnapshot>) | null {
  if (typeof process.send !== "function") return null;
  const waiting = new Map<number, (total: MetricsSnapshot) => void>();
  let nextId = 1;
  process.on("message", (message: ExchangeMessage) => {
    if (message?.type === "report") send({ type: "metrics", id: message.id, snapshot: metrics.snapshot() });
    else if (message?.type === "collected") waiting.get(message.id)?.(message.total);
  });
  const push = () => send({ type: "metrics", snapshot: metrics.snapshot() });
  push();
  setInterval(push, PUSH_INTERVAL_MS).unref();
  return () => new Promise<MetricsSnapshot>((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error("the supervisor did not answer"));
    }, SCRAPE_WAIT_MS);
    waiting.set(id, (total) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(total);
    });
    if (!send({ type: "collect", id, snapshot: metrics.snapshot() })) {
      clearTimeout(timer);
      waiting.delete(id);
      reject(new Error("the supervisor is gone"));
    }
  });
}

/** Supervisor side: the latest counts of each live worker process, and the sum of the dead ones. */
export class MetricsLedger {
  private readonly live = new Map<number, MetricsSnapshot>();
  private readonly dead = new Set<number>();
  private retired = emptySnapshot(0);

  /** Records the counts of worker process `pid` (ignored once it has exited). */
  receive(pid: number, snapshot: MetricsSnapshot): void {
    if (!this.dead.has(pid)) this.live.set(pid, snapshot);
  }

  /** Worker process `pid` exited: its latest counts stay in the totals. */
  retire(pid: number): void {
    this.dead.add(pid);
    const last = this.live.get(pid);
    if (last === undefined) return;
    this.retired = sumSnapshots([this.retired, last]);
    this.live.delete(pid);
  }

  /** The instance's counts: every live worker's latest plus the dead ones'. */
  total(): MetricsSnapshot {
    return sumSnapshots([this.retired, ...this.live.values()]);
  }
}

interface Worker {
  pid: number;
  send(message: ExchangeMessage): void;
}

/** Supervisor side: answers workers' messages; `workers()` lists the live ones. */
export class MetricsCollector {
  readonly ledger = new MetricsLedger();
  private readonly rounds = new Map<number, { missing: Set<number>; done: () => void }>();
  private nextRound = 1;

  constructor(private readonly workers: () => Iterable<Worker>) {}

  onMessage(from: Worker, message: ExchangeMessage): void {
    if (message?.type === "metrics") {
      this.ledger.receive(from.pid, message.snapshot);
      if (message.id !== undefined) this.answered(message.id, from.pid);
    } else if (message?.type === "collect") {
      this.ledger.receive(from.pid, message.snapshot);
      void this.collect(from.pid).then(() => {
        try {
          const total = this.ledger.total();
          total.logLinesDropped += droppedLogLines(); // the supervisor's own lines
          from.send({ type: "collected", id: message.id, total });
        } catch {
          // that worker is gone; its scrape went with it
        }
      });
    }
  }

  /** The worker `pid` exited: it will answer no round. */
  retire(pid: number): void {
    this.ledger.retire(pid);
    for (const id of this.rounds.keys()) this.answered(id, pid);
  }

  /** Asks every live worker but `asker` for its counts; resolves when all answered or after COLLECT_WAIT_MS. */
  private collect(asker: number): Promise<void> {
    const id = this.nextRound++;
    const missing = new Set<number>();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => finish(), COLLECT_WAIT_MS);
      const finish = () => {
        clearTimeout(timer);
        this.rounds.delete(id);
        resolve();
      };
      this.rounds.set(id, { missing, done: finish });
      for (const worker of this.workers()) {
        if (worker.pid === asker) continue;
        try {
          worker.send({ type: "report", id });
          missing.add(worker.pid);
        } catch {
          // exiting: its latest counts stand
        }
      }
      if (missing.size === 0) finish();
    });
  }

  private answered(id: number, pid: number): void {
    const round = this.rounds.get(id);
    if (round && round.missing.delete(pid) && round.missing.size === 0) round.done();
  }
}
