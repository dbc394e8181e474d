// What the HTTP benchmarks share: pinning (the server on CPU 1, the load on CPU 0, where
// taskset and two cores exist), starting a process that logs a "listening" line and reading
// its URL from it, and a process's CPU time from /proc.

import type { Subprocess } from "bun";
import { readdirSync, readFileSync } from "node:fs";
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

/**
 * The CPU time a process's threads have run, in microseconds: the sum of their
 * /proc/PID/task/TID/schedstat run times, in nanoseconds (utime + stime in /proc/PID/stat
 * count 10 ms ticks: 1% of a 2-second round at half a CPU). A thread that ended within a
 * measurement takes its time with it (a service's threads live as long as it does). NaN
 * without /proc.
 */
export function cpuMicros(pid: number): number {
  try {
    let nanos = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended between the listing and the read
      }
    }
    return nanos / 1000;
  } catch {
    return NaN;
  }
}
