// The live clock under the conditions that froze it on 2026-11-21: many reads, the read
// path optimised by the JIT, garbage collected between batches, small typed arrays
// allocated and dropped so that any memory the engine reuses gets reused. Every read must
// be the system's current time, never go backwards beyond what the system clock did, and
// come from the fixed native address that clock_gettime writes.

import { describe, expect, test } from "bun:test";
import { read } from "bun:ffi";
import { numberOfDFGCompiles } from "bun:jsc";
import { fallbackClock, realtimeClock, realtimeClockAddress, realtimeClockSource, type Clock } from "../../server/core/clock.ts";

const BATCHES = 400;
const READS_PER_BATCH = 50_000; // 20 million reads in all

interface Tally {
  reads: number;
  /** Reads outside [Date.now() before, Date.now() after], by more than 1 ms. */
  outside: number;
  worstMs: number;
  clockBackwardsMicros: number;
  systemBackwardsMs: number;
}

function readBatch(clock: Clock, tally: Tally, previous: { clock: number; system: number }): void {
  for (let i = 0; i < READS_PER_BATCH; i++) {
    const before = Date.now();
    const t = clock();
    const after = Date.now();
    const micros = t.seconds * 1e6 + t.micros;
    const ms = micros / 1000;
    const off = ms < before - 1 ? before - ms : ms > after + 1 ? ms - after : 0;
    if (off > 0) {
      tally.outside++;
      if (off > tally.worstMs) tally.worstMs = off;
    }
    if (previous.clock - micros > tally.clockBackwardsMicros) tally.clockBackwardsMicros = previous.clock - micros;
    if (previous.system - before > tally.systemBackwardsMs) tally.systemBackwardsMs = previous.system - before;
    previous.clock = micros;
    previous.system = after;
  }
  tally.reads += READS_PER_BATCH;
}

function churn(): number {
  // Small typed arrays are what the engine keeps in its own storage: make and drop many.
  let sum = 0;
  for (let i = 0; i < 2000; i++) sum += new Uint32Array(4 + (i & 7)).length;
  return sum;
}

function soak(clock: Clock, afterBatch: () => void = () => {}): Tally {
  const tally: Tally = { reads: 0, outside: 0, worstMs: 0, clockBackwardsMicros: 0, systemBackwardsMs: 0 };
  const previous = { clock: 0, system: 0 };
  for (let batch = 0; batch < BATCHES; batch++) {
    readBatch(clock, tally, previous);
    churn();
    if (batch % 4 === 0) Bun.gc(true);
    afterBatch();
  }
  return tally;
}

describe("realtime clock", () => {
  test("uses clock_gettime on this machine (the fallback is tested below)", () => {
    if (process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64")) {
      expect(realtimeClockSource).toBe("clock_gettime");
      expect(realtimeClockAddress).not.toBeNull();
    }
  });

  test("20 million reads with GC and JIT between them: current, monotonic, from the native address", () => {
    const address = realtimeClockAddress;
    let addressMismatches = 0;
    const tally = soak(realtimeClock, () => {
      if (address === null) return;
      // What the clock returns must be what clock_gettime wrote at the fixed address.
      const t = realtimeClock();
      const seconds = read.u32(address, 0) + read.u32(address, 4) * 4294967296;
      const micros = Math.floor(read.u32(address, 8) / 1000);
      if (seconds !== t.seconds || micros !== t.micros) addressMismatches++;
    });
    console.log(`clock: ${tally.reads} reads, ${tally.outside} outside the system clock's bracket (worst ${tally.worstMs.toFixed(1)} ms), ` +
      `backwards ${tally.clockBackwardsMicros} us (system ${tally.systemBackwardsMs} ms), address mismatches ${addressMismatches}`);
    expect(tally.reads).toBe(BATCHES * READS_PER_BATCH);
    // The loop that reads the clock was compiled by the optimising JIT: the conditions of the freeze.
    expect(numberOfDFGCompiles(readBatch)).toBeGreaterThan(0);
    expect(tally.outside).toBe(0);
    expect(tally.clockBackwardsMicros).toBeLessThanOrEqual(tally.systemBackwardsMs * 1000);
    expect(addressMismatches).toBe(0);
  }, 120_000);

  test("the fallback clock (no FFI) is the system's time to the millisecond", () => {
    const tally = soak(fallbackClock());
    expect(tally.outside).toBe(0);
    expect(tally.clockBackwardsMicros).toBeLessThanOrEqual(tally.systemBackwardsMs * 1000 + 1000);
  }, 120_000);
});
