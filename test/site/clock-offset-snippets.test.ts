// The guide's clock-offset functions, the very files the site shows (site/src/lib/
// clock-offset.js, the home page's panel runs it too, and clock_offset.py), run against
// the real server by clients whose clock is shifted by a known amount: libfaketime's
// FAKETIME="+2.5s" on a Python and a Node process, and an injected clock in this process.
// 100 runs of 8 round trips each: every run must find the shift within the bound it
// reports (NTP's half the least delay, plus the timestamps' resolution). Unshifted clients
// find 0 within theirs, so the test tells the two apart.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireTool } from "../support/require-tool.ts";
import { ROOT, startTestServer } from "../support/test-server.ts";
// @ts-expect-error: a plain JavaScript module (the guide's snippet), without types
import { clockOffset } from "../../site/src/lib/clock-offset.js";

const LIB = join(ROOT, "site", "src", "lib");
const SHIFT_MS = 2500;
const RUNS = 100;

let server: Awaited<ReturnType<typeof startTestServer>>;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: "off" });
  dir = mkdtempSync(join(tmpdir(), "zonetime-offset-"));
  writeFileSync(join(dir, "runs.py"), [
    "import json, sys",
    `sys.path.insert(0, ${JSON.stringify(LIB)})`,
    "from clock_offset import clock_offset",
    "for _ in range(int(sys.argv[2])):",
    "    print(json.dumps(clock_offset(sys.argv[1])), flush=True)",
  ].join("\n"));
  writeFileSync(join(dir, "runs.mjs"), [
    `import { clockOffset } from ${JSON.stringify(join(LIB, "clock-offset.js"))};`,
    "for (let i = 0; i < Number(process.argv[3]); i++) {",
    "  const { offset, bound, samples } = await clockOffset(process.argv[2]);",
    "  console.log(JSON.stringify([offset, bound, samples.length]));",
    "}",
  ].join("\n"));
}, 120_000);
afterAll(() => server?.stop());

type Run = [offset: number, bound: number, samples?: number];

/** Runs a client process (under faketime when `shift` is given); its stdout is one JSON run per line. */
async function client(command: string[], shift: string | null, runs: number): Promise<Run[]> {
  const argv = shift === null ? command : [requireTool("faketime"), "-f", shift, ...command];
  // Asynchronous: the server answering it lives in this process.
  const child = Bun.spawn([...argv, server.url, String(runs)], { stdout: "pipe", stderr: "pipe", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}: ${err}`);
  return out.trim().split("\n").map((line) => JSON.parse(line) as Run);
}

/** Every run's error against the true offset, beside its bound; the worst ones for the message. */
function check(runs: Run[], trueOffsetMs: number) {
  const misses = runs.filter(([offset, bound]) => Math.abs(offset - trueOffsetMs) > bound);
  const bounds = runs.map(([, bound]) => bound).sort((a, b) => a - b);
  const errors = runs.map(([offset]) => Math.abs(offset - trueOffsetMs)).sort((a, b) => a - b);
  console.log(`  ${runs.length} runs: |error| median ${errors[runs.length >> 1]!.toFixed(3)} ms, max ${errors.at(-1)!.toFixed(3)} ms; bound median ${bounds[runs.length >> 1]!.toFixed(3)} ms, max ${bounds.at(-1)!.toFixed(3)} ms`);
  return { runs: runs.length, misses, widestBound: bounds.at(-1)! };
}

describe("a client whose clock is 2.5 s ahead measures -2500 ms within its bound, 100 runs of 8 round trips", () => {
  test("Python (clock_offset.py) under libfaketime", async () => {
    const result = check(await client(["python3", join(dir, "runs.py")], `+${SHIFT_MS / 1000}s`, RUNS), -SHIFT_MS);
    expect(result.runs).toBe(RUNS);
    expect(result.misses).toEqual([]);
    // A bound wide enough to hold 0 too would prove nothing.
    expect(result.widestBound).toBeLessThan(SHIFT_MS / 2);
  }, 120_000);

  test("Node (clock-offset.js) under libfaketime", async () => {
    const runs = await client([requireTool("node"), join(dir, "runs.mjs")], `+${SHIFT_MS / 1000}s`, RUNS);
    expect(runs.every(([, , samples]) => samples === 8)).toBe(true);
    const result = check(runs, -SHIFT_MS);
    expect(result.misses).toEqual([]);
    expect(result.widestBound).toBeLessThan(SHIFT_MS / 2);
  }, 120_000);

  test("clock-offset.js here, with an injected clock 2.5 s ahead", async () => {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { offset, bound } = await clockOffset(server.url, 8, () => Date.now() + SHIFT_MS);
      runs.push([offset, bound]);
    }
    const result = check(runs, -SHIFT_MS);
    expect(result.misses).toEqual([]);
    expect(result.widestBound).toBeLessThan(SHIFT_MS / 2);
  }, 120_000);
});

test("unshifted clients measure 0 within their bound (the shift above is what they measured)", async () => {
  for (const command of [["python3", join(dir, "runs.py")], [requireTool("node"), join(dir, "runs.mjs")]]) {
    const result = check(await client(command, null, 20), 0);
    expect(result.misses).toEqual([]);
  }
}, 120_000);
