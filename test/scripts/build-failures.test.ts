// A build that fails part-way leaves the data folder as it was (scripts/table-set-writer.ts):
// on a full disk (a 60 MB tmpfs holding one set (52 MB with names.bin): the new geo.bin cannot be written) the
// build exits non-zero saying so, no temporary file or half set remains, the manifest and
// every table are byte for byte the old ones, the running instance serves on, a worker
// killed with kill -9 is replaced and a fresh start works. The same on a read-only folder,
// and after kill -9 of the build itself (its half set is removed by the next build, which
// then switches to a complete set).
//
// Needs root: mounting the tmpfs (full disk, read-only). CI runs as root. The kill -9 case
// runs as any user.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadData } from "../../server/process/load-data.ts";
import { isRoot, openDir, readOnlyMount } from "../support/restricted-data.ts";
import { requireTool } from "../support/require-tool.ts";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";
import { ROOT, testDataDir, testHandler } from "../support/test-server.ts";

const BUILD = join(ROOT, "scripts", "build.ts");
const PATHS = ["/timezone/Europe/London?at=2026-07-01T12:00:00Z", "/ip/8.8.8.8?at=2026-07-01T12:00:00Z", "/coordinates/52.52,13.405?at=2026-07-01T12:00:00Z"];

let reference: (req: Request) => Response;
beforeAll(async () => {
  reference = await testHandler();
}, 300_000);

const cleanups: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every file under `dir` (relative path -> sha256 of its bytes, or "dir"). */
function snapshot(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(out, { [path]: "dir" }, snapshot(dir, path));
    else out[path] = new Bun.CryptoHasher("sha256").update(readFileSync(join(dir, path))).digest("hex");
  }
  return out;
}

/** `cp -a`: the data folder as the build left it, hard links and all. */
function copyInto(dir: string, source: string): void {
  expect(Bun.spawnSync([requireTool("cp"), "-a", `${source}/.`, dir]).exitCode).toBe(0);
}

async function runBuild(dataDir: string, args: string[] = []): Promise<{ code: number; stderr: string }> {
  const child = Bun.spawn([process.execPath, BUILD, "--no-site", "--out", dataDir, ...args], { stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited, new Response(child.stdout).text()]);
  return { code, stderr };
}

async function expectServes(service: ServerProcess): Promise<void> {
  for (const path of PATHS) {
    const answer = await fetch(service.url + path);
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    const body = (await answer.text()).replace(/"client_ip":("[^"]*"|null)/g, "");
    expect(body).toBe((await reference(new Request(`http://127.0.0.1${path}`)).text()).replace(/"client_ip":("[^"]*"|null)/g, ""));
  }
}

describe("a build that fails part-way", () => {
  test.skipIf(!isRoot())("a full disk (ENOSPC on a 60 MB tmpfs): exits non-zero saying so; the old set is untouched and serves, a killed worker is replaced, a fresh start works; no .tmp left (needs root: mount)", async () => {
    const dir = openDir("zonetime-full-");
    expect(Bun.spawnSync([requireTool("mount"), "-t", "tmpfs", "-o", "size=60m", "tmpfs", dir]).exitCode).toBe(0);
    cleanups.push(() => void Bun.spawnSync([requireTool("umount"), "-l", dir]));
    copyInto(dir, await testDataDir());
    const before = snapshot(dir);
    const service = await startServerProcess({ DATA_DIR: dir, WORKERS: "2", DRAIN_GRACE_MS: "0", SITE_DIR: join(dir, "no-site") }, 2);
    cleanups.push(service.stop);

    const { code, stderr } = await runBuild(dir);
    expect(code).not.toBe(0);
    expect(stderr).toContain("build failed: no space left on the device");
    expect(stderr).toContain("are as they were");
    expect(snapshot(dir)).toEqual(before); // no .tmp, no half set, every byte the old one
    expect(Object.keys(snapshot(dir)).filter((p) => p.includes(".tmp"))).toEqual([]);

    await expectServes(service);
    const victim = JSON.parse(service.log.find((l) => l.includes('"event":"worker_started"'))!) as { pid: number };
    process.kill(victim.pid, "SIGKILL");
    await waitForLog(service.log, '"event":"listening"', { count: 3, child: service.child });
    await expectServes(service);
    const fresh = await startServerProcess({ DATA_DIR: dir, WORKERS: "1", SITE_DIR: join(dir, "no-site") });
    cleanups.push(fresh.stop);
    await expectServes(fresh);
  }, 300_000);

  test.skipIf(!isRoot())("a read-only data folder (EROFS): exits non-zero saying so, nothing changed (needs root: mount)", async () => {
    const source = await testDataDir();
    const mount = readOnlyMount(64, (dir) => copyInto(dir, source));
    cleanups.push(mount.unmount);
    const before = snapshot(mount.dir);
    const { code, stderr } = await runBuild(mount.dir);
    expect(code).not.toBe(0);
    expect(stderr).toContain("cannot be written");
    expect(snapshot(mount.dir)).toEqual(before);
    await loadData(mount.dir);
  }, 120_000);
  if (!isRoot()) console.warn("full-disk and read-only build tests skipped: mounting a tmpfs needs root (CI runs as root)");

  test("kill -9 of the build part-way: the old set stays whole and loads; the next build removes the half set and switches to a whole new one", async () => {
    const dir = join(openDir("zonetime-crash-"), "generated");
    Bun.spawnSync(["mkdir", dir]);
    copyInto(dir, await testDataDir());
    const before = snapshot(dir);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { set: string; builtAt: string };
    const child = Bun.spawn([process.execPath, BUILD, "--no-site", "--out", dir], { stdout: "ignore", stderr: "ignore" });
    // Killed once its new set has its first table.
    const sets = join(dir, "sets");
    const deadline = Date.now() + 60_000;
    const half = () => readdirSync(sets).filter((s) => `sets/${s}` !== manifest.set && existsSync(join(sets, s, "zones.bin")));
    while (half().length === 0 && Date.now() < deadline && child.exitCode === null) await Bun.sleep(5);
    child.kill("SIGKILL");
    await child.exited;
    expect(half().length).toBe(1);
    const after = snapshot(dir);
    for (const [path, hash] of Object.entries(before)) expect({ path, hash: after[path] }).toEqual({ path, hash });
    expect((await loadData(dir)).manifest!.builtAt).toBe(manifest.builtAt);

    // The next build (the tz part; the others are taken from the serving set) finishes and switches.
    const { code, stderr } = await runBuild(dir, ["--only", "tz"]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const next = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { set: string; builtAt: string };
    expect(readdirSync(sets).map((s) => `sets/${s}`)).toEqual([next.set]);
    expect(next.set).not.toBe(manifest.set);
    expect(Object.keys(snapshot(dir)).filter((p) => p.includes(".tmp"))).toEqual([]);
    const loaded = await loadData(dir);
    expect(loaded.manifest!.builtAt).toBe(next.builtAt);
    // The plain names are the new set's files (hard links), for readers of one table.
    for (const name of ["zones.bin", "geo.bin", "ip4.bin", "ip6.bin"]) expect(statSync(join(dir, name)).ino).toBe(statSync(join(dir, next.set, name)).ino);
  }, 300_000);
});
