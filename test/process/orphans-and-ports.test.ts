// One instance per port, and no instance without its supervisor: workers leave when the
// supervisor is killed (kill -9), and a start on a port something else holds fails with a
// message that says so, instead of silently sharing it through reusePort.

import { afterEach, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

const RUN = join(ROOT, "server", "process", "main.ts");
const spawned: Subprocess[] = [];
const others: number[] = [];
afterEach(() => {
  for (const c of spawned.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  for (const pid of others.splice(0)) if (existsSync(`/proc/${pid}`)) process.kill(pid, "SIGKILL");
});

async function run(env: Record<string, string>) {
  const child = Bun.spawn(["bun", RUN], {
    env: { ...process.env, HOST: "127.0.0.1", DATA_DIR: await testDataDir(), WORKERS: "1", ...env },
    stdin: "ignore", stdout: "pipe", stderr: "pipe",
  });
  spawned.push(child);
  const log: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    void (async () => {
      for await (const chunk of stream) log.push(...new TextDecoder().decode(chunk).split("\n").filter(Boolean));
    })();
  }
  return { child, log };
}

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).flatMap((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid ? [Number(entry)] : [];
    } catch {
      return []; // gone since the listing
    }
  });
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await Bun.sleep(50)) if (condition()) return true;
  return condition();
}

test("kill -9 of the supervisor: its workers drain and exit within seconds, and the port is free again", async () => {
  const port = await freePort();
  const { child, log } = await run({ PORT: String(port), WORKERS: "2" });
  expect(await until(() => log.filter((l) => l.includes('"event":"listening"')).length === 2, 30_000)).toBe(true);
  const workers = childrenOf(child.pid);
  expect(workers.length).toBe(2);
  others.push(...workers);
  expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);

  const killedAt = Date.now();
  child.kill("SIGKILL");
  const gone = await until(() => workers.every((pid) => !existsSync(`/proc/${pid}`)), 10_000);
  console.log(`supervisor kill -9: workers gone after ${Date.now() - killedAt} ms`);
  expect(gone).toBe(true);
  expect(log.filter((l) => l.includes('"event":"supervisor_gone"')).length).toBe(2);
  const refused = await fetch(`http://127.0.0.1:${port}/health/live`, { keepalive: false }).then(() => "answered", (e: Error) => e.message);
  expect(refused).not.toBe("answered");
}, 60_000);

test("a port something else holds (even with reusePort): the start fails with a message that says so, alone or supervised", async () => {
  const port = await freePort();
  // Another program (or an orphaned worker of an older instance) listening with SO_REUSEPORT.
  const holder = Bun.serve({ hostname: "127.0.0.1", port, reusePort: true, fetch: () => new Response("someone else") });
  try {
    for (const workers of ["1", "2"]) {
      const { child, log } = await run({ PORT: String(port), WORKERS: workers });
      const exited = await Promise.race([child.exited, Bun.sleep(20_000).then(() => "still running")]);
      expect(exited).toBe(1);
      await Bun.sleep(100); // the last log lines
      const failure = log.map((l) => JSON.parse(l)).find((e) => e.event === "port_in_use");
      expect(failure?.error).toStartWith(`PORT ${port} is already in use`);
      expect(log.some((l) => l.includes('"event":"listening"'))).toBe(false);
    }
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("someone else");
  } finally {
    holder.stop(true);
  }
}, 60_000);

test("SHARE_PORT=on: two instances that both ask for it share a port (a rolling restart); one that does not is refused", async () => {
  const port = String(await freePort());
  const a = await run({ PORT: port, SHARE_PORT: "on" });
  expect(await until(() => a.log.some((l) => l.includes('"event":"listening"')), 30_000)).toBe(true);
  const b = await run({ PORT: port, SHARE_PORT: "on" });
  expect(await until(() => b.log.some((l) => l.includes('"event":"listening"')), 30_000)).toBe(true);
  const c = await run({ PORT: port });
  expect(await Promise.race([c.child.exited, Bun.sleep(20_000).then(() => "still running")])).toBe(1);
}, 60_000);
