// How the workers' metrics become one instance's metrics (see metrics.ts): each worker
// reports its counts to the supervisor every PUSH_INTERVAL_MS, the supervisor sums the
// latest of each, and publishes the sum on the metrics board (metrics-board.ts) in the
// memory it shares with the workers, from which the worker a scrape reaches answers at
// once. Counts are thus at most about PUSH_INTERVAL_MS old; a worker that dies (even by
// kill -9) is counted up to its last report.
//
// The supervisor's sum never goes down, by construction: per live worker it keeps the
// latest counts that process sent (a process's counts only grow, and its messages arrive
// in order), and when a worker exits its latest counts move into a sum of the dead ones.
// A board the supervisor has not refreshed for STALE_MS (it is gone or stuck) fails the
// scrape (503) rather than report counts that stopped.

import { droppedLogLines } from "../core/log.ts";
import { MetricsBoard } from "./metrics-board.ts";
import { emptySnapshot, sumSnapshots, type Metrics, type MetricsSnapshot } from "./metrics.ts";

export const PUSH_INTERVAL_MS = 1000;
/** A board older than this: the supervisor stopped publishing. */
export const STALE_MS = 3 * PUSH_INTERVAL_MS;

/** worker -> supervisor: its counts. */
export type ExchangeMessage = { type: "metrics"; snapshot: MetricsSnapshot };

function send(message: ExchangeMessage): boolean {
  try {
    process.send!(message);
    return true;
  } catch {
    return false; // the supervisor is gone (the channel closed): serving matters more than counting
  }
}

/** Why a scrape cannot be answered with the instance's counts. */
export class MetricsUnavailable extends Error {}

/**
 * Worker side: reports its counts every PUSH_INTERVAL_MS. Returns what a scrape calls for
 * the instance's counts (synchronous: read from `board`), or null without an IPC channel
 * or a board (running alone).
 */
export function exchangeWithSupervisor(metrics: Metrics, board: MetricsBoard | null): (() => MetricsSnapshot) | null {
  if (typeof process.send !== "function" || board === null) return null;
  const push = () => send({ type: "metrics", snapshot: metrics.snapshot() });
  push();
  setInterval(push, PUSH_INTERVAL_MS).unref();
  return () => {
    const read = board.read();
    if (read === null) throw new MetricsUnavailable("the supervisor has not published the instance's counts yet");
    if (Date.now() - read.publishedAt > STALE_MS) throw new MetricsUnavailable("the supervisor stopped publishing the instance's counts");
    return read.total;
  };
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
}

/** Supervisor side: records workers' reports and publishes the instance's sum on the board. */
export class MetricsCollector {
  readonly ledger = new MetricsLedger();

  constructor(private readonly board: MetricsBoard | null) {
    this.publish();
    // Fresh even while no worker reports (all of them restarting): the board's age says the supervisor lives.
    setInterval(() => this.publish(), PUSH_INTERVAL_MS).unref();
  }

  onMessage(from: Worker, message: ExchangeMessage): void {
    if (message?.type !== "metrics") return;
    this.ledger.receive(from.pid, message.snapshot);
    this.publish();
  }

  /** The worker `pid` exited: its latest counts stay. */
  retire(pid: number): void {
    this.ledger.retire(pid);
    this.publish();
  }

  private publish(): void {
    if (this.board === null) return;
    const total = this.ledger.total();
    total.logLinesDropped += droppedLogLines(); // the supervisor's own lines
    this.board.publish(total);
  }
}
