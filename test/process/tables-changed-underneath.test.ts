// Tables changed in place under a serving instance (what cp, rsync --inplace, a config tool
// or a shared volume do): each of the four tables truncated, overwritten with random bytes
// of the same size (dd conv=notrunc), and deleted then recreated with other bytes, while
// wrk loads every table. Nothing may show: no worker dies (a mapping of the file died of
// SIGBUS), no answer is non-2xx or cut (wrk's counts), and every sampled body is exactly
// the answer of the set the instance checked at start (never unchecked bytes). A SIGHUP
// then refuses the changed files and keeps serving; the good files back and a SIGHUP, and
// the instance takes them (table-set.ts, table-handover.ts).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TABLE_FILES } from "../../server/process/table-set.ts";
import { flatDataCopy } from "../support/data-copy.ts";
import { requireTool } from "../support/require-tool.ts";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";
import { testDataDir, testHandler } from "../support/test-server.ts";
import { parseWrk } from "../support/wrk-report.ts";

const AT = "at=2026-07-01T12:00:00Z";
/** Each answer reads one table: zones, IPv4, IPv6, coordinates. */
const PATHS = [
  `/timezone/Europe/London?${AT}`,
  `/timezone/America/New_York/transitions?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z`,
  `/ip/8.8.8.8?${AT}`,
  `/ip/2001:4860:4860::8888?${AT}`,
  `/coordinates/52.52,13.405?${AT}`,
  `/coordinates/-33.87,151.21?${AT}`,
];

type Change = { name: string; apply: (file: string) => void };
const CHANGES: Change[] = [
  { name: "truncate", apply: (file) => run(["truncate", "-s", String(Math.floor(statSync(file).size / 3)), file]) },
  {
    name: "same-size dd overwrite",
    apply: (file) => {
      const blocks = Math.floor(statSync(file).size / 4096);
      run(["dd", "if=/dev/urandom", `of=${file}`, "bs=4096", `seek=${Math.floor(blocks / 4)}`, `count=${Math.max(1, Math.floor(blocks / 2))}`, "conv=notrunc", "status=none"]);
    },
  },
  {
    name: "delete and recreate",
    apply: (file) => {
      const size = statSync(file).size;
      rmSync(file);
      writeFileSync(file, crypto.getRandomValues(new Uint8Array(Math.min(size, 65536))));
    },
  },
];

function run(command: string[]): void {
  const result = Bun.spawnSync([requireTool(command[0]!), ...command.slice(1)], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")}: ${result.stderr.toString()}`);
}

let reference: (req: Request) => Response;
beforeAll(async () => {
  reference = await testHandler();
}, 300_000);

const withoutClient = (body: string) => body.replace(/"client_ip":("[^"]*"|null)/g, '"client_ip":-');
const expected = new Map<string, string>();
async function expectedBody(path: string): Promise<string> {
  if (!expected.has(path)) expected.set(path, withoutClient(await reference(new Request(`http://127.0.0.1${path}`)).text()));
  return expected.get(path)!;
}

/** wrk over every path in turn, for `seconds`. */
async function load(url: string, seconds: number) {
  const script = join(tmpdir(), `zonetime-paths-${crypto.randomUUID()}.lua`);
  writeFileSync(script, `local paths = {${PATHS.map((p) => JSON.stringify(p)).join(", ")}}\nlocal i = 0\n` +
    "request = function()\n  i = i + 1\n  return wrk.format(\"GET\", paths[(i % #paths) + 1])\nend\n");
  const child = Bun.spawn([requireTool("wrk"), "-t2", "-c16", `-d${seconds}s`, "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  if (code !== 0) throw new Error(`wrk exited ${code}: ${out}`);
  return parseWrk(out);
}

const services: ServerProcess[] = [];
afterAll(async () => {
  for (const s of services.splice(0)) await s.stop();
});

describe("tables changed in place while serving", () => {
  for (const workers of ["2", "1"]) {
    test(`WORKERS=${workers}: truncate, same-size overwrite, delete-and-recreate of each table under wrk: 0 non-2xx, 0 socket errors, 0 worker deaths, every sampled body the checked set's`, async () => {
      const dir = flatDataCopy(await testDataDir());
      const good = new Map(TABLE_FILES.map((name) => [name, readFileSync(join(dir, name))]));
      const service = await startServerProcess({ DATA_DIR: dir, WORKERS: workers, DRAIN_GRACE_MS: "0", SITE_DIR: join(dir, "no-site") }, Number(workers));
      services.push(service);
      const seconds = 4 + 3 * TABLE_FILES.length;
      const wrk = load(service.url, seconds);
      let samples = 0;
      const sample = async () => {
        for (const path of PATHS) {
          const answer = await fetch(service.url + path);
          expect({ path, status: answer.status }).toEqual({ path, status: 200 });
          expect({ path, body: withoutClient(await answer.text()) }).toEqual({ path, body: await expectedBody(path) });
          samples++;
        }
      };
      await Bun.sleep(1000);
      for (const name of TABLE_FILES) {
        for (const change of CHANGES) {
          writeFileSync(join(dir, name), good.get(name)!); // each change starts from the good file
          change.apply(join(dir, name));
          await Bun.sleep(250);
          await sample();
        }
      }
      const report = await wrk;
      await sample();
      console.log(`WORKERS=${workers}: ${report.requests} requests under ${TABLE_FILES.length * CHANGES.length} changes, ${samples} bodies sampled`);
      expect(report.requests).toBeGreaterThan(0);
      expect(report.non2xx3xx).toBe(0);
      expect(report.socketErrors).toEqual({ connect: 0, read: 0, write: 0, timeout: 0 });
      expect(service.log.filter((l) => l.includes('"event":"worker_exited"'))).toEqual([]);
      expect(service.child.exitCode).toBeNull();

      // The files are now changed (the last change: geo.bin recreated short): a SIGHUP refuses them and the checked set serves on.
      service.child.kill("SIGHUP");
      await waitForLog(service.log, '"event":"reload_failed"', { child: service.child });
      await sample();
      // The good files back: a SIGHUP takes them, in every worker.
      for (const [name, bytes] of good) writeFileSync(join(dir, name), bytes);
      service.child.kill("SIGHUP");
      await waitForLog(service.log, '"event":"reloaded"', { count: Number(workers), child: service.child });
      await sample();
      expect(service.log.filter((l) => l.includes('"event":"worker_exited"'))).toEqual([]);
    }, 180_000);
  }
});
