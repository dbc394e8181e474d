// Real WorldTimeAPI clients, played as they are written in the wild, switched to zonetime
// by changing the host alone.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";
import { expectedClock } from "../support/tzdb-reference.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

/** The local wall time at unix second t for an offset "+hh:mm", as Python's isoformat() prints it without the offset. */
function localIso(t: number, offset: string): string {
  const sign = offset.startsWith("-") ? -1 : 1;
  const seconds = sign * (Number(offset.slice(1, 3)) * 3600 + Number(offset.slice(4, 6)) * 60);
  return new Date((t + seconds) * 1000).toISOString().slice(0, 19);
}

/** Runs a client process (asynchronously: the server answering it lives in this process). */
async function run(command: string[]): Promise<string> {
  const child = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${command.join(" ")} failed: ${stderr}`);
  return stdout;
}

test("a shell script: curl the .txt and grep ^datetime", async () => {
  const out = (await run(["sh", "-c", `curl -fsS ${server.url}/api/timezone/Europe/London.txt | grep '^datetime' | cut -d' ' -f2`])).trim();
  expect(out).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d$/);
}, 30_000);

test("a Python client: json + datetime.strptime('%Y-%m-%dT%H:%M:%S.%f%z')", async () => {
  const script = `
import json, sys, urllib.request
from datetime import datetime, timezone
body = json.load(urllib.request.urlopen(sys.argv[1]))
local = datetime.strptime(body["datetime"], "%Y-%m-%dT%H:%M:%S.%f%z")
utc = datetime.strptime(body["utc_datetime"], "%Y-%m-%dT%H:%M:%S.%f%z")
assert local == utc, (local, utc)
assert local.utcoffset().total_seconds() == body["raw_offset"] + body["dst_offset"]
assert int(utc.timestamp()) == body["unixtime"]
print(local.isoformat())
`;
  const out = (await run(["python3", "-c", script, `${server.url}/api/timezone/America/Argentina/Salta`])).trim();
  expect(out).toMatch(/-03:00$/);
  // Havana at a fixed instant: what a Python client prints, the offset as zdump reads data/tzdb
  // (2026f: -04:00, so 2026-11-20T20:00:00-04:00).
  const at = 1795219200;
  const { utc_offset } = await expectedClock("America/Havana", at);
  const havana = (await run(["python3", "-c", script, `${server.url}/api/timezone/America/Havana?at=${at}`])).trim();
  expect(havana).toBe(`${localIso(at, utc_offset)}${utc_offset}`);
}, 30_000);

test("a JavaScript client of /api/ip/{address}: unixtime + raw_offset + dst_offset is the local time", async () => {
  for (const address of ["8.8.8.8", "2001:4860:4860::8888", "1.1.1.1"]) {
    const body = (await (await fetch(`${server.url}/api/ip/${address}`)).json()) as {
      unixtime: number; raw_offset: number; dst_offset: number; datetime: string; client_ip: string;
    };
    const local = new Date((body.unixtime + body.raw_offset + body.dst_offset) * 1000).toISOString().slice(0, 19);
    expect(body.datetime.slice(0, 19)).toBe(local);
    expect(body.client_ip).toBe(address);
  }
});
