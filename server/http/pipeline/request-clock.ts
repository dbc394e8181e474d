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

  /** A new request: no reading yet. */
  begin(): void {
    this.reading = null;
    this.dated = null;
  }

  /** The service's clock, remembered as the reading this request's answer is made from. */
  readonly read = (): Instant => (this.reading = this.clock());

  /**
   * The second the answer is about: its body's reading, else the system clock's second now
   * (Date.now(): the clock the service's own is checked against, ops/clock-check.ts; read
   * for the second alone, no Instant made: kept answers 0.2-1.9% faster in process).
   */
  second(): number {
    return this.reading !== null ? this.reading.seconds : Math.floor(Date.now() / 1000);
  }
}
