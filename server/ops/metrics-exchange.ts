// How the workers' metrics become one instance's metrics (see metrics.ts): every
// PUSH_INTERVAL_MS each worker sends its own counts to the supervisor over Bun's IPC
// channel; the supervisor answers with the sum of every other worker's last counts,
// including those of workers that have died since (so that counters never go down).

import { emptySnapshot, sumSnapshots, type Metrics, type MetricsSnapshot } from "./metrics.ts";

export const PUSH_INTERVAL_MS = 1000;

export type ExchangeMessage =
  | { type: "metrics"; snapshot: MetricsSnapshot }
  | { type: "metrics-others"; snapshot: MetricsSnapshot };

/** Worker side: pushes this worker's counts and keeps what comes back. No-op without an IPC channel. */
export function exchangeWithSupervisor(metrics: Metrics): void {
  if (typeof process.send !== "function") return;
  process.on("message", (message: ExchangeMessage) => {
    if (message?.type === "metrics-others") metrics.others = message.snapshot;
  });
  const push = () => {
    try {
      process.send!({ type: "metrics", snapshot: metrics.snapshot() } satisfies ExchangeMessage);
    } catch {
      // The supervisor is gone (the channel closed): serving matters more than counting.
    }
  };
  push();
  setInterval(push, PUSH_INTERVAL_MS).unref();
}

/** Supervisor side: the last counts of each live worker slot, and the sum of the dead ones. */
export class MetricsLedger {
  private readonly live = new Map<number, MetricsSnapshot>();
  private retired = emptySnapshot(0);

  /** Records `slot`'s counts; returns everyone else's sum, to send back to it. */
  receive(slot: number, snapshot: MetricsSnapshot): MetricsSnapshot {
    this.live.set(slot, snapshot);
    const others = [this.retired];
    for (const [s, counts] of this.live) if (s !== slot) others.push(counts);
    return sumSnapshots(others);
  }

  /** The worker in `slot` exited: its last counts stay in the totals. */
  retire(slot: number): void {
    const last = this.live.get(slot);
    if (last === undefined) return;
    this.retired = sumSnapshots([this.retired, last]);
    this.live.delete(slot);
  }
}
