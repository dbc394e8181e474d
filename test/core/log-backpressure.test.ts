// Logging never takes the service down: with stdout piped into a reader that stops
// reading, memory stays bounded (lines that do not fit are dropped and counted in
// /metrics); when the reader exits, EPIPE is not fatal, with or without the access log,
// alone or under the supervisor. Real processes and real pipes.

import { afterEach, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { pipeReader, type PipeReader } from "../support/pipe-reader.ts";
import { SERVICE_ENTRY } from "../support/server-process.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const requireTool = (name: string) => {
  if (!Bun.which(name)) throw new Error(`${name} is not installed: bash scripts/bootstrap.sh --test installs it`);
};

async function reader(command: string): Promise<PipeReader> {
  const r = await pipeReader(command);
  cleanup.push(() => r.exit());
  return r;
}

/** Stops `child` after the test: SIGTERM first, so that a supervisor takes its workers with it. */
function kill(child: Subprocess): void {
  cleanup.push(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    if (await Promise.race([child.exited.then(() => true), Bun.sleep(5000).then(() => false)])) return;
    child.kill("SIGKILL");
    await child.exited;
  });
}

/** The service with its stdout into `stdout` (a pipe's write end); stderr is read by the test. */
async function startService(stdout: PipeReader, env: Record<string, string>): Promise<{ child: Subprocess; url: string; stderr: () => string }> {
  const port = await freePort();
  const child = Bun.spawn([process.execPath, SERVICE_ENTRY], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), WORKERS: "1", DATA_DIR: await testDataDir(), RATE_LIMIT: "off", DRAIN_GRACE_MS: "0", ...env },
    stdin: "ignore", stdout: stdout.fd, stderr: "pipe",
  });
  stdout.release();
  kill(child);
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr as ReadableStream<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`did not start: ${stderr}`);
    if ((await fetch(`${url}/health/ready`).catch(() => null))?.status === 200) break;
    await Bun.sleep(50);
  }
  return { child, url, stderr: () => stderr };
}

async function droppedLines(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return [...text.matchAll(/^zonetime_log_lines_dropped_total(?:\{[^}]*\})? (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

test("a reader that stops reading: 200 MB of log lines leave memory bounded; what does not fit is dropped and counted", async () => {
  const stuck = await reader("sleep 600");
  const script = `
    const log = await import(${JSON.stringify(join(ROOT, "server", "core", "log.ts"))});
    const big = "y".repeat(10_000);
    for (let i = 0; i < 20_000; i++) {
      log.logEvent("filler", { i, big });
      if (i % 100 === 0) await Bun.sleep(1);
    }
    Bun.gc(true);
    process.stderr.write(JSON.stringify({ rss: process.memoryUsage.rss(), dropped: log.droppedLogLines?.() ?? null }) + "\\n");`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdin: "ignore", stdout: stuck.fd, stderr: "pipe" });
  stuck.release();
  kill(child);
  const { value } = await child.stderr.getReader().read(); // the one report line (the process cannot exit: its stdout is stuck)
  const report = JSON.parse(new TextDecoder().decode(value)) as { rss: number; dropped: number | null };
  console.log(`stuck stdout, 20,000 lines of 10 KB: RSS ${Math.round(report.rss / 2 ** 20)} MB, ${report.dropped} lines dropped`);
  expect(report.rss).toBeLessThan(100 * 2 ** 20);
  expect(report.dropped).toBeGreaterThan(19_000);
}, 60_000);

for (const accessLog of ["on", "off"]) {
  test(`ACCESS_LOG=${accessLog}: stdout stuck, then its reader exits: the service keeps serving and counts what it dropped`, async () => {
    requireTool("wrk");
    const stuck = await reader("sleep 600");
    const service = await startService(stuck, { ACCESS_LOG: accessLog });
    const load = Bun.spawn(["wrk", "-t1", "-c20", "-d3s", `${service.url}/timezone/UTC`], { stdout: "pipe", stderr: "pipe" });
    await load.exited;
    expect((await fetch(`${service.url}/timezone/UTC`)).status).toBe(200);
    const droppedWhileStuck = await droppedLines(service.url);
    // 3 s of wrk writes several MB of access log, far more than the pipe and the bounded buffer hold.
    if (accessLog === "on") expect(droppedWhileStuck).toBeGreaterThan(1000);

    await stuck.exit();
    for (let i = 0; i < 50; i++) expect((await fetch(`${service.url}/timezone/UTC`)).status).toBe(200);
    service.child.kill("SIGHUP"); // a reload logs a line: the first write after the reader left
    await Bun.sleep(1000);
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`${service.url}/timezone/UTC`)).status).toBe(200);
    expect(await droppedLines(service.url)).toBeGreaterThan(droppedWhileStuck);
    expect(service.stderr()).not.toContain("EPIPE");
  }, 60_000);
}

test("WORKERS=2, stdout into `head -n 1`: the supervisor survives its reader leaving at start, and the workers serve", async () => {
  const head = await reader("head -n 1 >/dev/null");
  const service = await startService(head, { WORKERS: "2" });
  await Bun.sleep(1500); // the supervisor and the workers log more lines after the first
  expect(service.child.exitCode).toBeNull();
  for (let i = 0; i < 20; i++) expect((await fetch(`${service.url}/timezone/UTC`, { headers: { Connection: "close" } })).status).toBe(200);
  service.child.kill("SIGHUP");
  await Bun.sleep(1000);
  expect(service.child.exitCode).toBeNull();
  expect(await droppedLines(service.url)).toBeGreaterThan(0);
}, 60_000);
