// How long the Redis thread (rate-store-thread.ts) waits before its next attempt to
// connect: doubling from FIRST_MS, capped at MAX_MS, with "equal jitter" (a random wait
// between half and all of the step). Every replica loses Redis at the same instant; without
// jitter they would all knock again in lockstep, each wave landing on a Redis that is just
// starting. The cap bounds both the attempts (at most one per MAX_MS / 2 once the doubling
// reaches it: about 40 a minute of Redis down, 65 at most) and how long a returned Redis
// waits to be used (MAX_MS at most).

export const BACKOFF_FIRST_MS = 100;
export const BACKOFF_MAX_MS = 2000;

/** The wait before attempt number `failures + 1`, after `failures` failed ones in a row (0: after a lost connection). */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(failures, 16));
  return step / 2 + random() * (step / 2);
}
