// /sync under wrk load, on a real instance of two workers: every answer is checked by a wrk
// script (test/support/sync-check.lua) while it is served. Four checker connections (one
// per wrk thread) send t0 in every allowed form and follow their connection's t2, while 32
// more connections add load. Over every answer: t1 <= t2, t2 never goes backwards within a
// connection, and t0 comes back byte for byte.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { requireTool } from "../support/require-tool.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { ROOT } from "../support/test-server.ts";
import { parseWrk } from "../support/wrk-report.ts";

const SCRIPT = join(ROOT, "test", "support", "sync-check.lua");
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ WORKERS: "2", RATE_LIMIT: "off" }, 2);
}, 120_000);
afterAll(() => server?.stop());

interface Checks { requests: number; checked: number; bad_status: number; bad_shape: number; bad_echo: number; bad_order: number; backwards: number; skipped: number }

async function wrk(threads: number, connections: number, mode: "check" | "load"): Promise<Checks> {
  const child = Bun.spawn([requireTool("wrk"), `-t${threads}`, `-c${connections}`, "-d4s", "-s", SCRIPT, server.url, "--", mode], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`wrk exited ${code}: ${err}${out}`);
  const report = parseWrk(out);
  expect(report.socketErrors).toEqual({ connect: 0, read: 0, write: 0, timeout: 0 });
  const line = /^SYNC-CHECK (.*)$/m.exec(out);
  if (!line) throw new Error(`the wrk script printed no totals:\n${out}`);
  const checks = Object.fromEntries(line[1]!.split(" ").map((kv) => kv.split("=")).map(([k, v]) => [k, Number(v)])) as unknown as Checks;
  console.log(`  wrk -t${threads} -c${connections} (${mode}): ${report.requests} answers, ${report.requestsPerSecond.toFixed(0)}/s; ${line[1]}`);
  return checks;
}

test("under wrk load: t1 <= t2 in every answer, t2 never backwards on a connection, t0 echoed exactly", async () => {
  const [check, load] = await Promise.all([wrk(4, 4, "check"), wrk(1, 32, "load")]);
  for (const [name, c] of [["check", check], ["load", load]] as const) {
    // Every answer wrk counted went through the script's checks.
    expect({ name, checked: c.checked }).toEqual({ name, checked: c.requests });
    expect({ name, bad_status: c.bad_status, bad_shape: c.bad_shape, bad_echo: c.bad_echo, bad_order: c.bad_order, backwards: c.backwards })
      .toEqual({ name, bad_status: 0, bad_shape: 0, bad_echo: 0, bad_order: 0, backwards: 0 });
  }
  // Enough answers to mean something (a count, not a speed: any machine serves this many in 4 s).
  expect(check.checked).toBeGreaterThan(1000);
  expect(load.checked).toBeGreaterThan(1000);
  // Only the one request wrk makes on its first thread without sending it is never answered.
  expect(check.skipped).toBeLessThanOrEqual(1);
}, 60_000);
