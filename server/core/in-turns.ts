// A long build done in turns: after each TURN_MS of work the event loop gets a turn, so the
// requests that arrived meanwhile wait at most about that long (issue 30: no single build may
// hold a worker for more than a few milliseconds). What changed between two far tzdb releases
// takes 25-250 ms to work out, the releases feed 300-470 ms on a fresh worker, a device list
// at an instant no kept stretch holds up to 40 ms: each is a loop over names, stepped here.
//
// The turn is a timer, not setImmediate: a 400 ms build in 2 ms steps served beside a client's
// requests let them through at a median 0.04 ms with a timer, 2.1 ms with setImmediate (Bun
// 1.4.4, measured), for about 1 ms per turn added to the long build's own wait.

/** Milliseconds of work between two turns of the event loop. */
export const TURN_MS = 2;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** `step` on each item in order, the event loop given a turn whenever TURN_MS has passed. */
export async function inTurns<T>(items: Iterable<T>, step: (item: T) => void): Promise<void> {
  let turnEnds = performance.now() + TURN_MS;
  for (const item of items) {
    step(item);
    if (performance.now() >= turnEnds) {
      await nextTurn();
      turnEnds = performance.now() + TURN_MS;
    }
  }
}

/**
 * Long builds at once per worker; the rest wait for one to end. Each holds what it is making
 * (a far pair of releases: 10-20 MB until its answer leaves): made at once, they came one
 * after another; in turns, twenty clients' first burst of far pairs held 222 MB at once.
 */
export const BUILDS_AT_ONCE = 2;

let building = 0;
const waiting: (() => void)[] = [];

/** `build` once fewer than BUILDS_AT_ONCE others are under way in this worker. */
export async function whenFewBuilding<T>(build: () => Promise<T>): Promise<T> {
  if (building < BUILDS_AT_ONCE) building++;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // handed the slot of one that ended
  try {
    return await build();
  } finally {
    const next = waiting.shift();
    if (next !== undefined) next();
    else building--;
  }
}
