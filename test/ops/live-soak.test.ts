// The live clock after sustained load, as a client sees it: a million requests over the
// time-object routes under wrk (a sample checked while they are served), then live answers
// that are whole and current, a clock that advances, and a fixed instant whose answer has
// not changed by a byte. Every earlier check of a time object used `?at=` or a fresh
// process, and missed a clock that froze after a few hundred requests.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { checkAtRest, FIXED_PATH, runLiveLoad, type WrkRun } from "../../scripts/soak/live-checks.ts";
import { requireTool } from "../support/require-tool.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

const REQUESTS = 1_000_000;
const MAX_ROUNDS = 12; // of 10 s each: a slow machine gets more time, never an endless loop

let service: ServerProcess;
// The first suite of a run pays for building the test data (tz, geo, IP and names tables):
// over a minute on a loaded two-core machine.
beforeAll(async () => {
  service = await startServerProcess({ RATE_LIMIT: "off" });
}, 180_000);
// A drain under a loaded machine can pass the 5 s a hook gets by default.
afterAll(() => service?.stop(), 30_000);

test("a million requests later the service still tells the current time, whole and byte-exact", async () => {
  requireTool("wrk");
  const fixed = await fetch(service.url + FIXED_PATH);
  expect(fixed.status).toBe(200);
  const fixedBefore = await fixed.text();

  const runs: WrkRun[] = [];
  let requests = 0;
  while (requests < REQUESTS && runs.length < MAX_ROUNDS) {
    const run = await runLiveLoad(service.url, 10);
    runs.push(run);
    requests += run.requests;
  }
  const sum = (key: "socketErrors" | "non2xx" | "checked" | "bad") => runs.reduce((n, r) => n + r[key], 0);
  const rest = await checkAtRest(service.url, fixedBefore);
  console.log(`live soak: ${requests} requests in ${runs.length} wrk runs; checked under load ${sum("checked")}, bad ${sum("bad")}` +
    `${sum("bad") ? ` (${runs.find((r) => r.bad)!.firstBad})` : ""}; socket errors ${sum("socketErrors")}, non-2xx ${sum("non2xx")}; ` +
    `at rest: ${rest.answers} live answers, ${rest.problems.length} wrong; clock advanced ${rest.advancedMs} ms over 1 s; ` +
    `fixed instant ${rest.fixedRepeats - rest.fixedDifferent}/${rest.fixedRepeats} byte-identical`);

  expect(requests).toBeGreaterThanOrEqual(REQUESTS);
  expect(sum("non2xx")).toBe(0);
  expect(sum("socketErrors")).toBe(0);
  expect(sum("checked")).toBeGreaterThanOrEqual(REQUESTS / 100 - runs.length * 100);
  expect(sum("bad")).toBe(0);
  expect(rest.problems).toEqual([]);
  expect(rest.advancedMs).toBeGreaterThanOrEqual(900);
  expect(rest.advancedMs).toBeLessThanOrEqual(3000);
  expect(rest.fixedDifferent).toBe(0);
}, 240_000);
