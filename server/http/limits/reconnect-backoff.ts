// How long the Redis thread (rate-store-thread.ts) waits before its next attempt to
// connect: doubling from FIRST_MS, capped at MAX_MS, with "equal jitter" (a random wait
// between half and all of the step). Every replica loses Redis at the same instant; without
// jitter they would all knock again in lockstep, each wave landing on a Redis that is just
// starting. The cap bounds both the attempts (once the doubling reaches it, one every
// 0.75 to 1.5 s: about 55 in a minute of Redis down, 85 at most) and how long a Redis that
// is back waits to be used again (1.5 s at most, plus the connection itself).

export const BACKOFF_FIRST_MS = 100;
export const BACKOFF_MAX_MS = 1500;

/** The wait before attempt number `failures + 1`, after `failures` failed ones in a row (0: after a lost connection). */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(failures, 16));
  return step / 2 + random() * (step / 2);
}
