// core/in-turns.ts: a long build stepped so that the event loop gets turns, and at most a
// few such builds under way at once in a worker.

import { expect, test } from "bun:test";
import { BUILDS_AT_ONCE, inTurns, TURN_MS, whenFewBuilding } from "../../server/core/in-turns.ts";

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

test("a build's steps run in order, and a timer set before it fires between them", async () => {
  const seen: string[] = [];
  setTimeout(() => seen.push("timer"), 0);
  await inTurns([1, 2, 3, 4, 5, 6], (n) => {
    spin(TURN_MS / 2);
    seen.push(String(n));
  });
  expect(seen.filter((s) => s !== "timer")).toEqual(["1", "2", "3", "4", "5", "6"]);
  // Made at once, the timer would fire after the last step.
  expect(seen.indexOf("timer")).toBeGreaterThan(0);
  expect(seen.indexOf("timer")).toBeLessThan(seen.length - 1);
});

test(`at most ${BUILDS_AT_ONCE} builds under way at once; the others start as those end, in order`, async () => {
  let under = 0;
  let most = 0;
  const started: number[] = [];
  const build = (n: number) => whenFewBuilding(async () => {
    started.push(n);
    most = Math.max(most, ++under);
    await inTurns(Array.from({ length: 4 }), () => spin(TURN_MS));
    under--;
    return n;
  });
  const made = await Promise.all(Array.from({ length: 7 }, (_, n) => build(n)));
  expect(made).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(most).toBe(BUILDS_AT_ONCE);
  expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  // A failed build hands its place on too.
  const failed = whenFewBuilding(async () => {
    throw new Error("bug");
  });
  await expect(failed).rejects.toThrow("bug");
  expect(await Promise.all([build(7), build(8), build(9)])).toEqual([7, 8, 9]);
  expect(under).toBe(0);
});
