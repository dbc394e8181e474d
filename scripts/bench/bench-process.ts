// What the HTTP benchmarks share: pinning (the server on CPU 1, the load on CPU 0, where
// taskset and two cores exist), starting a process that logs a "listening" line and reading
// its URL from it, and a process's CPU time.

import type { Subprocess } from "bun";
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

export const PIN = Bun.which("taskset") !== null && availableParallelism() >= 2;

/** `args` run on `cpu` when pinning is possible (taskset execs the command, so the child's pid is the command's own). */
export const pinned = (cpu: number, args: string[]): string[] => (PIN ? ["taskset", "-c", String(cpu), ...args] : args);

export interface Listening {
  child: Subprocess<"ignore", "pipe", "inherit">;
  url: string;
}

/** Starts `args` with `env` over this process's, and waits for its "listening" log line. */
export async function startListening(args: string[], env: Record<string, string>): Promise<Listening> {
  const child = Bun.spawn(args, { env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!/"event":"listening"[^\n]*\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args.join(" ")} exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  // Keep reading its log, so that a full pipe never stalls the server.
  void (async () => {
    for await (const _ of child.stdout) { /* drain */ }
  })().catch(() => {});
  return { child, url: /"url":"([^"]+)"/.exec(text)![1]! };
}

/** The service as its own process (scripts/ does not import the server's process layer): one worker on a free loopback port, `env` on top. */
export function startService(env: Record<string, string>, options: { cpu?: number } = {}): Promise<Listening> {
  const args = [process.execPath, join(import.meta.dir, "..", "..", "server", "process", "main.ts")];
  return startListening(options.cpu === undefined ? args : pinned(options.cpu, args), { PORT: "0", HOST: "127.0.0.1", WORKERS: "1", ...env });
}

/** glibc's clock_gettime, for another process's CPU clock; null where there is no glibc. */
const libc = (() => {
  try {
    return dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } }).symbols;
  } catch {
    return null;
  }
})();

/**
 * The CPU time a process has used, all its threads (ended ones too), in microseconds: its
 * CPU-time clock (clock_getcpuclockid(3), read with clock_gettime), exact to the
 * nanosecond, where /proc/PID/stat counts 10 ms ticks (1% of a 2-second round at half a
 * CPU) and the threads' own schedstat loses a thread's time when it ends. Without glibc,
 * the ticks; NaN without /proc either.
 */
export function cpuMicros(pid: number): number {
  const spec = new BigInt64Array(2);
  // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) of linux/posix-timers.h
  if (libc !== null && libc.clock_gettime((~pid << 3) | 2, ptr(spec)) === 0) return Number(spec[0]) * 1e6 + Number(spec[1]) / 1000;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 1e4; // utime + stime (fields 14 and 15 of proc(5)), in 10 ms ticks
  } catch {
    return NaN;
  }
}
