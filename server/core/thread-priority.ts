// Background work on a thread of its own (the history thread's builds) yields the CPU to
// the thread that serves requests: on Linux a thread's nice value is its own (setpriority(2)
// with who = 0 sets the calling thread's), and the scheduler then gives a nice-10 thread
// about a tenth of a core it shares with a nice-0 one. Elsewhere, or without libc through
// bun:ffi, nothing changes.

import { dlopen } from "bun:ffi";

const PRIO_PROCESS = 0;

/** Lowers the calling thread's priority to `nice` (0-19); true when it took. */
export function lowerThisThread(nice: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const libc = dlopen("libc.so.6", { setpriority: { args: ["i32", "u32", "i32"], returns: "i32" } });
    return libc.symbols.setpriority(PRIO_PROCESS, 0, nice) === 0;
  } catch {
    return false;
  }
}
