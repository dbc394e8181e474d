// core/in-turns.ts: a long build stepped so that the event loop gets turns, and at most a
// few such builds under way at once in a worker.

import { expect, test } from "bun:test";
import { BUILDS_AT_ONCE, eachOf, inTurns, TURN_MS, whenFewBuilding, type Steps } from "../../server/core/in-turns.ts";

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

test("a build's steps run in order after a turn of their own, and a timer set by one step fires before the last", async () => {
  const seen: string[] = [];
  setTimeout(() => seen.push("set before"), 0);
  await inTurns(eachOf([1, 2, 3, 4, 5, 6], (n) => {
    if (n === 1) setTimeout(() => seen.push("timer"), 0);
    spin(TURN_MS / 2);
    seen.push(String(n));
  }));
  // The request that started the build had its own part: the first step waits for a turn.
  expect(seen[0]).toBe("set before");
  expect(seen.filter((s) => s.length === 1)).toEqual(["1", "2", "3", "4", "5", "6"]);
  // Made at once, the timer would fire after the last step.
  expect(seen.indexOf("timer")).toBeLessThan(seen.length - 1);
});

test("a build made of builds (yield*) is one walk: a turn comes inside the inner ones, and what each makes is passed up", async () => {
  function* inner(n: number): Steps<number> {
    for (let i = 0; i < 3; i++) {
      spin(TURN_MS / 2);
      yield;
    }
    return n * 10;
  }
  function* outer(): Steps<number[]> {
    const made: number[] = [];
    for (let n = 1; n <= 4; n++) made.push(yield* inner(n));
    return made;
  }
  let turns = 0;
  const counting = setInterval(() => turns++, 0);
  const made = await inTurns(outer());
  clearInterval(counting);
  expect(made).toEqual([10, 20, 30, 40]);
  // 12 steps of TURN_MS / 2: about 6 turns given inside them (each inner build is 1.5 TURN_MS, shorter than a turn).
  expect(turns).toBeGreaterThanOrEqual(3);
});

test(`at most ${BUILDS_AT_ONCE} builds under way at once; the others start as those end, in order`, async () => {
  let under = 0;
  let most = 0;
  const started: number[] = [];
  const build = (n: number) => whenFewBuilding(async () => {
    started.push(n);
    most = Math.max(most, ++under);
    await inTurns(eachOf(Array.from({ length: 4 }), () => spin(TURN_MS)));
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
