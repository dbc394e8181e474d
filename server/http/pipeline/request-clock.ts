// The clock reading an answer is made from, shared by its body and its Date header: the
// Date names the second the body was made in (issue 30; Bun's own Date, refreshed by a
// timer, lagged the body by up to 1.58 s under load). An answer that reads no clock (a
// cached list, a page) is dated by the system clock's second as it is made.
//
// One per AppState: the handlers are synchronous, so the request being answered owns it
// from `begin` until its answer leaves (a POST's answer, or one made in turns, is made
// later: it reads the clock afresh as it leaves).

import type { Clock, Instant } from "../../core/clock.ts";

export class RequestClock {
  /** The current request's reading, once taken. */
  reading: Instant | null = null;
  /** The Response whose Headers already carry the Date for `reading` (responses.ts): the handler leaves its Date be. */
  dated: Response | null = null;

  constructor(private readonly clock: Clock) {}

  /** performance.now() as the current request began. */
  private began = 0;
  /** The system clock's second as last read, and performance.now() when that second ends. */
  private systemSecond = 0;
  private systemSecondEnds = -Infinity;

  /** A new request, begun at `now` (performance.now()): no reading yet. */
  begin(now: number = performance.now()): void {
    this.reading = null;
    this.dated = null;
    this.began = now;
  }

  /** The service's clock, remembered as the reading this request's answer is made from. */
  readonly read = (): Instant => (this.reading = this.clock());

  /**
   * The second the answer is about: its body's reading, else the system clock's second
   * (Date.now(): the clock the service's own is checked against, ops/clock-check.ts). The
   * system clock is read once per its second, not per answer: the monotonic clock the
   * handler reads anyway (performance.now(), `begin`) tells when that second ends. Read per
   * answer, it cost a kept answer about 1% of its CPU over HTTP (issue 31: transitions
   * 0.990 without, A/B). The two clocks run at the same rate (NTP slews both), so the second
   * named is the system clock's but for a step of that clock, which shows once the second
   * it fell in ends.
   */
  second(): number {
    if (this.reading !== null) return this.reading.seconds;
    if (this.began >= this.systemSecondEnds) {
      // Never late: Date.now() is floored to its millisecond, so the second may end up to
      // 1 ms sooner than it says, and the monotonic clock is read first. (Late, an answer
      // made in the new second's first millisecond was dated a second early: one in 3,000
      // in date-header.test.ts.) The last millisecond of each second reads the clock again.
      const now = performance.now();
      const ms = Date.now();
      this.systemSecond = Math.floor(ms / 1000);
      this.systemSecondEnds = now + (1000 - (ms - this.systemSecond * 1000)) - 1;
    }
    return this.systemSecond;
  }
}
