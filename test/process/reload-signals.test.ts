// SIGHUP against a real process: corrupted tables of the right length are refused and the
// old ones keep serving; two overlapping reloads end with the newest files, never the
// older ones installed last; a SIGHUP while the tables are still loading at start neither
// kills the process nor is forgotten. A FIFO in place of manifest.json holds a load at a
// known point: the loader blocks reading it until the test writes it.

import { afterEach, expect, test } from "bun:test";
import { closeSync, constants, cpSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { spawnService, startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";
import { testDataDir } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";
import { flatDataCopy } from "../support/data-copy.ts";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function dataCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-reload-"));
  flatDataCopy(await testDataDir(), dir); // a flat copy of its own: the test changes its files
  return dir;
}

async function start(env: Record<string, string>, listening = 1): Promise<ServerProcess> {
  const service = await startServerProcess({ DRAIN_GRACE_MS: "0", SITE_DIR: join(tmpdir(), "zonetime-no-site"), ...env }, listening);
  stops.push(service.stop);
  return service;
}

const events = (log: string[], name: string) => log.filter((l) => l.includes(`"event":"${name}"`));
const health = async (url: string) => (await (await fetch(`${url}/health`)).json()) as { data: { ip_data_date: string } };

/** Waits until some process reads the FIFO at `path` (a non-blocking open for writing succeeds only then). */
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

function corrupt(file: string, how: "flip" | "zero-tail"): void {
  const bytes = readFileSync(file);
  // 64 flips in the low bytes of transition instants: the table still parses (lengths, indexes and order hold).
  const transitions = bytes.readUInt32LE(24);
  if (how === "flip") {
    for (let i = 0; i < 64; i++) {
      const at = 64 + 8 * Math.floor((i * transitions) / 64);
      bytes[at] = bytes[at]! ^ 0xff;
    }
  }
  else bytes.fill(0, bytes.length - Math.ceil(bytes.length / 100));
  writeFileSync(file, bytes);
}

test("SIGHUP with corrupted tables of the right length: refused, logged, the old tables keep serving", async () => {
  const dir = await dataCopy();
  const service = await start({ DATA_DIR: dir });
  const good = readFileSync(join(dir, "zones.bin"));
  let failures = 0;
  for (const how of ["flip", "zero-tail"] as const) {
    corrupt(join(dir, "zones.bin"), how);
    service.child.kill("SIGHUP");
    await waitForLog(service.log, '"event":"reload_failed"', { count: ++failures, timeoutMs: 5000 });
    expect(events(service.log, "reload_failed").at(-1)).toContain("sha256");
    const utc = (await (await fetch(`${service.url}/timezone/UTC`)).json()) as { utc_offset: string };
    expect(utc.utc_offset).toBe("+00:00");
    const names = (await (await fetch(`${service.url}/timezone`)).json()) as string[];
    expect(names.filter((n) => !/^[A-Za-z0-9_+\-/]+$/.test(n))).toEqual([]);
    expect(names).toHaveLength(597);
    writeFileSync(join(dir, "zones.bin"), good);
  }
  expect(events(service.log, "reloaded")).toHaveLength(0);
}, 60_000);

test("SIGHUP with a manifest that is null or garbage: refused, and /health still answers 200", async () => {
  const dir = await dataCopy();
  const service = await start({ DATA_DIR: dir });
  const text = readFileSync(join(dir, "manifest.json"), "utf8");
  let failures = 0;
  for (const bad of ["null", "{ not json"]) {
    writeFileSync(join(dir, "manifest.json"), bad);
    service.child.kill("SIGHUP");
    await waitForLog(service.log, '"event":"reload_failed"', { count: ++failures, timeoutMs: 5000 });
    expect(events(service.log, "reload_failed").at(-1)).toContain("manifest.json");
    const r = await fetch(`${service.url}/health`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { data: { tzdb: string } }).data.tzdb).toBe(sourceRelease());
  }
  writeFileSync(join(dir, "manifest.json"), text);
  service.child.kill("SIGHUP");
  await waitForLog(service.log, '"event":"reloaded"', { timeoutMs: 5000 });
}, 60_000);

test("two overlapping SIGHUPs: the second reload runs after the first, so the newest files are what serves", async () => {
  const dir = await dataCopy();
  const service = await start({ DATA_DIR: dir });
  const manifestPath = join(dir, "manifest.json");
  const older = readFileSync(manifestPath, "utf8");
  const newer = JSON.stringify({ ...JSON.parse(older), ip: { ...JSON.parse(older).ip, dataDate: "2099-01-01T00:00:00.000Z" } });
  rmSync(manifestPath);
  expect(Bun.spawnSync(["mkfifo", manifestPath]).exitCode).toBe(0);
  service.child.kill("SIGHUP"); // reload 1: blocks reading the FIFO
  const fd = await openWhenRead(manifestPath);
  // A build finishes meanwhile: the newer generation is on disk.
  writeFileSync(`${manifestPath}.next`, newer);
  renameSync(`${manifestPath}.next`, manifestPath);
  service.child.kill("SIGHUP"); // reload 2
  // Before reload 1 goes on: reload 2 has either finished beside it, or been queued behind it.
  const deadline = Date.now() + 10_000;
  while (events(service.log, "reloaded").length + events(service.log, "reload_queued").length === 0 && Date.now() < deadline) await Bun.sleep(10);
  writeSync(fd, older); // reload 1 goes on with what it had started to read
  closeSync(fd);
  await waitForLog(service.log, '"event":"reloaded"', { count: 2, timeoutMs: 10_000 });
  await Bun.sleep(200);
  expect(events(service.log, "reloaded")).toHaveLength(2);
  expect((await health(service.url)).data.ip_data_date).toBe("2099-01-01T00:00:00.000Z");
}, 60_000);

for (const workers of ["1", "2"]) {
  test(`WORKERS=${workers}: a SIGHUP while the tables load at start does not kill the process, and is acted on once serving`, async () => {
    const dir = await dataCopy();
    const manifestPath = join(dir, "manifest.json");
    const text = readFileSync(manifestPath, "utf8");
    rmSync(manifestPath);
    expect(Bun.spawnSync(["mkfifo", manifestPath]).exitCode).toBe(0);
    const port = await freePort();
    const { child, log } = spawnService({ ...process.env, HOST: "127.0.0.1", PORT: String(port), WORKERS: workers, DATA_DIR: dir, DRAIN_GRACE_MS: "0", SITE_DIR: join(tmpdir(), "zonetime-no-site") });
    stops.push(async () => {
      child.kill("SIGTERM");
      await child.exited;
    });
    const fd = await openWhenRead(manifestPath); // the process is loading its tables now
    writeFileSync(`${manifestPath}.next`, text);
    renameSync(`${manifestPath}.next`, manifestPath); // what workers and later reloads read
    child.kill("SIGHUP");
    const outcome = await Promise.race([child.exited.then((code) => `exited ${code} (${child.signalCode})`), Bun.sleep(300).then(() => "running")]);
    expect(outcome).toBe("running");
    writeSync(fd, text);
    closeSync(fd);
    await waitForLog(log, '"event":"listening"', { count: Number(workers), child });
    expect((await fetch(`http://127.0.0.1:${port}/timezone/UTC`)).status).toBe(200);
    if (workers === "1") await waitForLog(log, '"event":"reloaded"', { timeoutMs: 5000 }); // the SIGHUP, once serving
    expect(child.exitCode).toBeNull();
  }, 60_000);
}
