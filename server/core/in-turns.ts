// A long build done in turns: after each TURN_MS of work the event loop gets a turn, so the
// requests that arrived meanwhile wait at most about that long (issue 30: no single build may
// hold a worker for more than a few milliseconds). A device list at an instant no kept stretch
// holds takes up to 40 ms. (What tzdb releases changed, and the feeds, are made on the
// history thread instead: http/time-machine/history-builds.ts. In 2 ms turns here, their
// turns and the collections of their garbage between them still held the worker 5-10 ms.)
//
// A build is written as a generator (`Steps`) that yields between units of work, each well
// under TURN_MS, and returns what it made; nested builds are `yield*`ed, so one build is one
// walk with one budget. (Stepping only the outer loop left each pair's own set-up, a table's
// first reading, the names to walk, between two turns: gaps of 10-35 ms in the feed's walk.)
//
// The turn is a timer, not setImmediate: a 400 ms build in 2 ms steps served beside a client's
// requests let them through at a median 0.04 ms with a timer, 2.1 ms with setImmediate (Bun
// 1.4.4, measured), for about 1 ms per turn added to the long build's own wait.

/** Milliseconds of work between two turns of the event loop. */
export const TURN_MS = 2;

/** A build in steps: yields between units of work, returns what it made. */
export type Steps<T> = Generator<void, T, void>;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Upper bounds (seconds) of the turn-length buckets /metrics shows (zonetime_build_turn_seconds). */
export const TURN_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025];
/** This process's turns by how long each held the worker (the last bucket: over the last bound), and their sum. */
const turns = { counts: new Array<number>(TURN_BUCKETS.length + 1).fill(0), seconds: 0 };

function counted(ms: number): void {
  const seconds = ms / 1000;
  let i = 0;
  while (i < TURN_BUCKETS.length && seconds > TURN_BUCKETS[i]!) i++;
  turns.counts[i]!++;
  turns.seconds += seconds;
}

/** The turns builds took in this process so far, by length (what "no build holds a worker more than a few ms" is checked by). */
export function buildTurns(): { counts: number[]; seconds: number } {
  return { counts: [...turns.counts], seconds: turns.seconds };
}

/**
 * Runs `steps`, the event loop given a turn whenever TURN_MS has passed; resolves to what
 * they made. The first step waits for a turn too: the request that starts a build has held
 * the worker for its own part already (a far pair's handler and first turn: 7 ms at once).
 */
export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  await nextTurn();
  let turnStarted = performance.now();
  for (;;) {
    const step = steps.next();
    const now = performance.now();
    if (step.done) {
      counted(now - turnStarted);
      return step.value;
    }
    if (now - turnStarted >= TURN_MS) {
      counted(now - turnStarted);
      await nextTurn();
      turnStarted = performance.now();
    }
  }
}

/** `step` on each item in order, a unit of work each. */
export function* eachOf<T>(items: Iterable<T>, step: (item: T) => void): Steps<void> {
  for (const item of items) {
    step(item);
    yield;
  }
}

/**
 * Long builds at once per worker; the rest wait for one to end. Each holds what it is making
 * until its answer leaves: made at once, builds came one after another; in turns, twenty
 * clients' first burst of far release pairs (then made in turns) held 222 MB at once.
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
