// A SIGHUP while the process is still reading its own modules, before signals.ts or the
// supervisor could install a handler, must not kill it (docs/operations.md: a SIGHUP during start is
// acted on once serving). The moment is held on purpose: the test runs a copy of server/ whose
// service.ts first reads a FIFO (Bun loads no module from a FIFO itself), so the process stops
// amid its modules until the test writes it. Before the fix (main.ts installed the handler in
// its body, which runs only after every module it imports) the process died of that SIGHUP.

import { afterEach, expect, test } from "bun:test";
import { closeSync, constants, cpSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { spawnService, waitForLog } from "../support/server-process.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";
import { WORKER_ID_VARIABLE } from "../../server/process/supervisor.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Waits until some process opens the FIFO at `path` for reading (a non-blocking open for writing succeeds only then). */
async function openWhenRead(path: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO" || Date.now() > deadline) throw error;
      await Bun.sleep(5);
    }
  }
}

for (const workers of ["1", "2"]) {
  test(`WORKERS=${workers}: a SIGHUP while the modules still load does not kill the process, and is acted on once serving`, async () => {
    const copy = mkdtempSync(join(tmpdir(), "zonetime-early-hangup-"));
    cleanups.push(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(join(ROOT, "server"), join(copy, "server"), { recursive: true });
    const gate = join(copy, "gate");
    expect(Bun.spawnSync(["mkfifo", gate]).exitCode).toBe(0);
    const service = join(copy, "server", "process", "service.ts");
    // The supervisor or the lone process waits at the gate; workers, started later, do not.
    const wait = `import { readFileSync as readGate } from "node:fs";\nif (process.env.${WORKER_ID_VARIABLE} === undefined) readGate(${JSON.stringify(gate)});\n`;
    writeFileSync(service, wait + readFileSync(service, "utf8"));
    const port = await freePort();
    const env = { ...process.env, HOST: "127.0.0.1", PORT: String(port), WORKERS: workers, DATA_DIR: await testDataDir(), DRAIN_GRACE_MS: "0", SITE_DIR: join(tmpdir(), "zonetime-no-site") };
    const { child, log } = spawnService(env, [process.execPath, join(copy, "server", "process", "main.ts")]);
    cleanups.push(async () => {
      child.kill("SIGTERM");
      await child.exited;
    });
    const fd = await openWhenRead(gate); // the process is amid its modules now
    child.kill("SIGHUP");
    const outcome = await Promise.race([child.exited.then((code) => `exited ${code} (${child.signalCode})`), Bun.sleep(300).then(() => "running")]);
    writeSync(fd, "go");
    closeSync(fd);
    expect(outcome).toBe("running");
    await waitForLog(log, '"event":"listening"', { count: Number(workers), child });
    expect((await fetch(`http://127.0.0.1:${port}/timezone/UTC`)).status).toBe(200);
    // The SIGHUP, once serving: a reload (alone), the instance's reload (the supervisor).
    await waitForLog(log, workers === "1" ? '"event":"reloaded"' : '"event":"tables_handed_over"', { timeoutMs: 10_000, child });
    expect(child.exitCode).toBeNull();
  }, 120_000);
}
