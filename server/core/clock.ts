// The system's realtime clock with real microseconds: clock_gettime(CLOCK_REALTIME)
// through bun:ffi (about 30 ns a call here). Date.now() has only milliseconds, and
// performance.timeOrigin + now() is a monotonic clock that drifts from the system clock
// when NTP slews it; the service promises the system's synchronised time.
//
// The timespec that clock_gettime fills is native memory allocated once (see
// core/native-memory.ts for why a typed array's `ptr()` taken once is not: that form
// froze the clock after a few hundred requests and let the kernel's writes land in
// memory the engine had reused).

import { dlopen, type Pointer } from "bun:ffi";
import { allocateNative } from "./native-memory.ts";

export interface Instant {
  /** Whole unix seconds (floor). */
  seconds: number;
  /** 0..999999 */
  micros: number;
}

export type Clock = () => Instant;

const CLOCK_REALTIME = 0;
const TIMESPEC_BYTES = 16;

/**
 * struct timespec is { i64 tv_sec; i64 tv_nsec } (16 bytes, little-endian) on the LP64
 * platforms named here; anywhere else the layout is not assumed and the fallback runs.
 */
function timespecLayoutKnown(): boolean {
  return (process.platform === "linux" || process.platform === "darwin") && (process.arch === "x64" || process.arch === "arm64");
}

function ffiClock(): { clock: Clock; address: Pointer } | null {
  if (!timespecLayoutKnown()) return null;
  try {
    const libc = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      clock_gettime: { args: ["i32", "ptr"], returns: "i32" },
    });
    const timespec = allocateNative(TIMESPEC_BYTES);
    if (timespec === null) return null;
    const words = new Uint32Array(timespec.bytes.buffer, 0, TIMESPEC_BYTES / 4);
    const { address } = timespec;
    const clockGettime = libc.symbols.clock_gettime;
    if (clockGettime(CLOCK_REALTIME, address) !== 0) return null;
    const clock = () => {
      clockGettime(CLOCK_REALTIME, address);
      return { seconds: words[0]! + words[1]! * 4294967296, micros: Math.floor(words[2]! / 1000) };
    };
    return { clock, address };
  } catch {
    return null;
  }
}

/**
 * Where FFI is unavailable: the high-resolution timer for the microseconds, anchored to
 * Date.now() and re-anchored whenever the two part by more than a millisecond (an NTP
 * step or slew), so the answer is the system's time to the millisecond.
 */
export function fallbackClock(): Clock {
  let anchor = Date.now() - performance.now();
  return () => {
    let ms = anchor + performance.now();
    const system = Date.now();
    if (ms < system - 1 || ms > system + 1) {
      anchor = system - performance.now();
      ms = anchor + performance.now();
    }
    const micros = Math.floor(ms * 1000);
    return { seconds: Math.floor(micros / 1e6), micros: micros % 1e6 };
  };
}

const ffi = ffiClock();
export const realtimeClockSource: "clock_gettime" | "performance" = ffi ? "clock_gettime" : "performance";
export const realtimeClock: Clock = ffi?.clock ?? fallbackClock();
/** The native address clock_gettime writes to (null with the fallback): fixed for the life of the process. */
export const realtimeClockAddress: Pointer | null = ffi?.address ?? null;
