// Background work on a thread of its own (the history thread's builds) yields the CPU to
// the thread that serves requests: on Linux a thread's nice value is its own (getpriority(2)
// and setpriority(2) with who = 0 read and set the calling thread's), and the scheduler gives
// a thread 10 nice steps below another about a tenth of a core they share. Relative, so that
// a service an operator already runs at nice 5 gets its history thread at 15, never raised
// back to 10. Elsewhere, or without libc through bun:ffi, nothing changes.

import { dlopen } from "bun:ffi";

const PRIO_PROCESS = 0;
const LOWEST = 19;

/** Lowers the calling thread's priority by `steps` nice steps (at most to 19); true when it took. */
export function lowerThisThread(steps: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const libc = dlopen("libc.so.6", {
      getpriority: { args: ["i32", "u32"], returns: "i32" },
      setpriority: { args: ["i32", "u32", "i32"], returns: "i32" },
    });
    const now = libc.symbols.getpriority(PRIO_PROCESS, 0);
    return libc.symbols.setpriority(PRIO_PROCESS, 0, Math.min(LOWEST, now + steps)) === 0;
  } catch {
    return false;
  }
}
