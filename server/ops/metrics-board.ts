// The instance's metrics where every worker can read them at once: a region of the memory
// the supervisor shares with its workers (process/shared-memory.ts), into which the
// supervisor writes the instance's counts (metrics-exchange.ts's ledger) each time a
// worker reports, and from which a worker answers /metrics synchronously.
//
// Why not ask the supervisor at scrape time: that made /metrics the one asynchronous
// answer, and Bun 1.4 closes a connection that pipelines a request behind an async answer
// without answering it (issue 17, F10). Reading here is synchronous, so every answer is.
//
// A seqlock: the writer makes the sequence odd, writes, makes it even; a reader copies
// the bytes between two equal even readings. Every worker reads the same latest total,
// and the supervisor's totals never go down, so no scrape reports less than an earlier
// one, whichever worker answers it.

import type { MetricsSnapshot } from "./metrics.ts";

/** Bytes of the board: a header and the JSON of one snapshot (a few KB; a histogram per route). */
export const METRICS_BOARD_BYTES = 256 * 1024;
const HEADER_BYTES = 16; // i32 sequence, i32 length, f64 published at (ms since the epoch)
const READ_ATTEMPTS = 1000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class MetricsBoard {
  private readonly words: Int32Array;
  private readonly at: Float64Array;
  private readonly bytes: Uint8Array;

  /** `offset`: where the board starts in `memory` (a multiple of 8). */
  constructor(memory: ArrayBuffer, offset = 0) {
    if (memory.byteLength < offset + METRICS_BOARD_BYTES) throw new Error(`a metrics board needs ${METRICS_BOARD_BYTES} bytes`);
    this.words = new Int32Array(memory, offset, 2);
    this.at = new Float64Array(memory, offset + 8, 1);
    this.bytes = new Uint8Array(memory, offset + HEADER_BYTES, METRICS_BOARD_BYTES - HEADER_BYTES);
  }

  /** Supervisor: the instance's counts now. */
  publish(total: MetricsSnapshot, now = Date.now()): void {
    const json = encoder.encode(JSON.stringify(total));
    if (json.byteLength > this.bytes.byteLength) throw new Error(`metrics snapshot of ${json.byteLength} bytes exceeds the board`);
    Atomics.add(this.words, 0, 1); // odd: writing
    this.bytes.set(json);
    this.at[0] = now;
    Atomics.store(this.words, 1, json.byteLength);
    Atomics.add(this.words, 0, 1); // even: done
  }

  /** Worker: the latest counts and when they were published, or null before the first. */
  read(): { total: MetricsSnapshot; publishedAt: number } | null {
    for (let i = 0; i < READ_ATTEMPTS; i++) {
      const before = Atomics.load(this.words, 0);
      if (before === 0) return null;
      if (before % 2 === 1) continue;
      const length = Atomics.load(this.words, 1);
      const copy = this.bytes.slice(0, length);
      const publishedAt = this.at[0]!;
      if (Atomics.load(this.words, 0) !== before) continue;
      return { total: JSON.parse(decoder.decode(copy)) as MetricsSnapshot, publishedAt };
    }
    return null;
  }
}
