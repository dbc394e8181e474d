// A real redis-server for a test: its own port, no persistence, stopped (or killed) by the test.

import type { Subprocess } from "bun";
import { freePort } from "./free-port.ts";
import { requireTool } from "./require-tool.ts";

export interface RedisServer {
  port: number;
  url: string;
  child: Subprocess;
  /** One redis-cli command's output, trimmed. */
  cli: (...args: string[]) => Promise<string>;
  /** kill -9: no goodbye to its clients. */
  kill9: () => Promise<void>;
  /** Starts it again on the same port (after kill9 or stop). */
  restart: () => Promise<void>;
  stop: () => void;
}

export async function startRedis(extra: string[] = [], port?: number): Promise<RedisServer> {
  const server = requireTool("redis-server");
  const cliPath = requireTool("redis-cli");
  port ??= await freePort();
  const args = [server, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extra];
  const cli = async (...a: string[]) => {
    const p = Bun.spawn([cliPath, "-p", String(port), ...a], { stdout: "pipe", stderr: "pipe" });
    return (await new Response(p.stdout).text()).trim();
  };
  const redis: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    child: null as unknown as Subprocess,
    cli,
    kill9: async () => {
      redis.child.kill("SIGKILL");
      await redis.child.exited;
    },
    restart: async () => {
      redis.child = Bun.spawn(args, { stdout: "ignore", stderr: "ignore" });
      for (const deadline = Date.now() + 10_000; (await cli("PING")) !== "PONG"; await Bun.sleep(20)) {
        if (Date.now() > deadline || redis.child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
      }
    },
    stop: () => redis.child.kill(),
  };
  await redis.restart();
  return redis;
}
