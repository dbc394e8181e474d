// The Redis thread's wait between attempts to connect (server/http/limits/reconnect-backoff.ts):
// doubling, capped, jittered between half and all of each step.

import { expect, test } from "bun:test";
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS, reconnectDelayMs } from "../../server/http/limits/reconnect-backoff.ts";

test("each wait lies between half and all of its step; the steps double from the first and stop at the cap", () => {
  const steps = Array.from({ length: 40 }, (_, failures) => reconnectDelayMs(failures, () => 1));
  expect(steps.slice(0, 6)).toEqual([100, 200, 400, 800, 1500, 1500]);
  expect(Math.max(...steps)).toBe(BACKOFF_MAX_MS);
  for (let failures = 0; failures < 40; failures++) {
    expect(reconnectDelayMs(failures, () => 0)).toBe(reconnectDelayMs(failures, () => 1) / 2);
  }
  expect(reconnectDelayMs(0, () => 0)).toBe(BACKOFF_FIRST_MS / 2);
  expect(reconnectDelayMs(1e9, () => 0.5)).toBe(BACKOFF_MAX_MS * 0.75); // no overflow to Infinity
});

test("jittered: replicas that lost Redis together do not knock again together", () => {
  const waits = Array.from({ length: 1000 }, () => reconnectDelayMs(10));
  const distinct = new Set(waits.map((w) => Math.floor(w / 10))).size;
  expect(distinct).toBeGreaterThan(50); // spread over the 750 ms between half and all of the step
  expect(Math.min(...waits)).toBeGreaterThanOrEqual(BACKOFF_MAX_MS / 2);
  expect(Math.max(...waits)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
});
