// The service checks the clock it answers with against the system clock read another way
// (Date.now(), which the engine reads without our FFI). On 2026-11-21 the FFI clock froze
// after a few hundred requests while /health said "ok" and every answer carried the same
// instant; a clock that stops or strays for any reason must take the instance out of
// rotation (readiness fails), leave a log line, and count in /metrics.

import type { Clock, Instant } from "../core/clock.ts";
import { logEvent } from "../core/log.ts";

/** The largest distance, in milliseconds, between the serving clock and the system clock that still counts as agreeing. */
export const CLOCK_DIVERGENCE_BOUND_MS = 50;

export interface ClockVerdict {
  agrees: boolean;
  /** How far the serving clock was outside [Date.now() before, Date.now() after], in milliseconds (0 when inside). */
  skewMs: number;
}

export class ClockCheck {
  private diverged = false;
  private last: ClockVerdict = { agrees: true, skewMs: 0 };

  /** `onDiverged` runs each time the serving clock goes from agreeing to diverging (it is counted in /metrics). */
  constructor(
    private readonly clock: Clock,
    private readonly onDiverged: () => void,
    private readonly boundMs = CLOCK_DIVERGENCE_BOUND_MS,
    private readonly context: Record<string, unknown> = {},
  ) {}

  /** Reads both clocks now; a change of verdict is logged, a new divergence counted. */
  check(): ClockVerdict {
    this.checkedNow();
    return this.last;
  }

  /**
   * The serving clock's reading, checked as `check()` checks it (same verdict, log line and
   * count), or null when it has diverged: for answers that are the clock itself (/sync),
   * which must never carry a wrong time.
   */
  checkedNow(): Instant | null {
    const before = Date.now();
    const t = this.clock();
    const after = Date.now();
    const ms = t.seconds * 1000 + Math.floor(t.micros / 1000); // whole ms, as Date.now() counts them
    const skewMs = ms < before ? before - ms : ms > after ? ms - after : 0;
    const agrees = skewMs <= this.boundMs;
    if (!agrees && !this.diverged) {
      this.onDiverged();
      logEvent("clock_diverged", { ...this.context, skewMs: Math.round(skewMs), boundMs: this.boundMs });
    } else if (agrees && this.diverged) {
      logEvent("clock_agrees_again", { ...this.context });
    }
    this.diverged = !agrees;
    this.last = { agrees, skewMs };
    return agrees ? t : null;
  }

  /** The verdict of the last check (without reading the clocks again). */
  get lastVerdict(): ClockVerdict {
    return this.last;
  }
}
