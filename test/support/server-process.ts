// The service as its own process (`bun server/process/main.ts`), on a free port, for tests that
// must see it survive what they do to it.

import type { Subprocess } from "bun";
import { join } from "node:path";
import { ROOT, testDataDir } from "./test-server.ts";

export interface ServerProcess {
  port: number;
  url: string;
  child: Subprocess<"ignore", "pipe", "pipe">;
  stop: () => Promise<void>;
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = Bun.spawn(["bun", join(ROOT, "server", "process", "main.ts")], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", WORKERS: "1", DATA_DIR: await testDataDir(), ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 30_000;
  while (!/"event":"listening".*\n/.test(text)) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${text}${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const port = Number(/"url":"http:\/\/[^"]*:(\d+)"/.exec(text)![1]);
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for await (const _ of child.stdout) { /* discard */ }
  })().catch(() => {});
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      child.kill();
      await child.exited;
    },
  };
}
