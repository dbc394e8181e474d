// The system's realtime clock with real microseconds: clock_gettime(CLOCK_REALTIME)
// through bun:ffi (about 30 ns a call here). Date.now() has only milliseconds, and
// performance.timeOrigin + now() is a monotonic clock that drifts from the system clock
// when NTP slews it; the service promises the system's synchronised time.

import { dlopen, ptr } from "bun:ffi";

export interface Instant {
  /** Whole unix seconds (floor). */
  seconds: number;
  /** 0..999999 */
  micros: number;
}

export type Clock = () => Instant;

const CLOCK_REALTIME = 0;

function ffiClock(): Clock | null {
  try {
    const libc = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      clock_gettime: { args: ["i32", "ptr"], returns: "i32" },
    });
    // struct timespec on 64-bit Linux: i64 tv_sec, i64 tv_nsec.
    const words = new Uint32Array(4);
    const address = ptr(words);
    const clockGettime = libc.symbols.clock_gettime;
    if (clockGettime(CLOCK_REALTIME, address) !== 0) return null;
    return () => {
      clockGettime(CLOCK_REALTIME, address);
      return { seconds: words[0]! + words[1]! * 4294967296, micros: Math.floor(words[2]! / 1000) };
    };
  } catch {
    return null;
  }
}

/** Millisecond clock with microseconds from the high-resolution timer: used only where FFI is unavailable. */
function fallbackClock(): Clock {
  return () => {
    const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    return { seconds: Math.floor(micros / 1e6), micros: micros % 1e6 };
  };
}

const ffi = ffiClock();
export const realtimeClockSource: "clock_gettime" | "performance" = ffi ? "clock_gettime" : "performance";
export const realtimeClock: Clock = ffi ?? fallbackClock();
