// The service as its own process (`bun server/process/main.ts`), on a free port, for tests that
// must see it survive what they do to it. Every line it logs (stdout and stderr) is kept
// in `log`, so a test can wait for an event.

import type { Subprocess } from "bun";
import { join } from "node:path";
import { ROOT, testDataDir } from "./test-server.ts";

export interface ServerProcess {
  port: number;
  url: string;
  child: Subprocess<"ignore", "pipe", "pipe">;
  /** Every line logged so far, stdout and stderr interleaved as they arrived. */
  log: string[];
  stop: () => Promise<void>;
}

export const SERVICE_ENTRY = join(ROOT, "server", "process", "main.ts");

/** The service's processes are started with this Bun, never one looked up on PATH (`command` may wrap it, e.g. in setpriv). */
export function spawnService(
  env: Record<string, string>, command: string[] = [process.execPath, SERVICE_ENTRY],
): { child: Subprocess<"ignore", "pipe", "pipe">; log: string[] } {
  const child = Bun.spawn(command, { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const log: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop()!;
      log.push(...lines);
    }
    if (rest) log.push(rest);
  };
  void collect(child.stdout).catch(() => {});
  void collect(child.stderr).catch(() => {});
  return { child, log };
}

/** Waits until `count` lines of `log` contain `text`; throws (with the log) on timeout or when `child` exits. */
export async function waitForLog(
  log: string[], text: string, options: { count?: number; timeoutMs?: number; child?: Subprocess } = {},
): Promise<string[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const found = log.filter((l) => l.includes(text));
    if (found.length >= (options.count ?? 1)) return found;
    if (options.child && options.child.exitCode !== null) {
      await Bun.sleep(100); // let the last lines arrive
      throw new Error(`exited (${options.child.exitCode}) before logging ${text}:\n${log.join("\n")}`);
    }
    if (Date.now() > deadline) throw new Error(`no ${text} within ${options.timeoutMs ?? 30_000} ms:\n${log.join("\n")}`);
    await Bun.sleep(20);
  }
}

export async function startServerProcess(env: Record<string, string> = {}, listening = 1, command?: string[]): Promise<ServerProcess> {
  const { child, log } = spawnService({ ...process.env, PORT: "0", HOST: "127.0.0.1", WORKERS: "1", DATA_DIR: await testDataDir(), ...env }, command);
  const [first] = await waitForLog(log, '"event":"listening"', { count: listening, child });
  const port = Number(/"url":"http:\/\/[^"]*:(\d+)"/.exec(first!)![1]);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    log,
    stop: async () => {
      child.kill();
      await child.exited;
    },
  };
}
