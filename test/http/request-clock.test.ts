// The second an answer that reads no clock is dated with (server/http/pipeline/request-clock.ts):
// the system clock's, read once per its second, the monotonic clock telling when that second
// ends. Here both clocks are the test's: the system clock runs a fraction of a millisecond
// ahead of the monotonic one, as real clocks do, and Date.now() floors it to the millisecond,
// as the real one does. Over HTTP the same race showed once in 3,000 requests
// (date-header.test.ts); here every millisecond fraction of a few seconds is tried.

import { afterEach, expect, test } from "bun:test";
import { RequestClock } from "../../server/http/pipeline/request-clock.ts";

const realDateNow = Date.now;
const realPerformanceNow = performance.now;
afterEach(() => {
  Date.now = realDateNow;
  performance.now = realPerformanceNow;
});

/** The two clocks at monotonic `at` ms, the system clock `ahead` ms ahead of it; counts the system clock's reads. */
function fakeClocks(ahead: number): { at: number; systemReads: number } {
  const clocks = { at: 0, systemReads: 0 };
  performance.now = () => clocks.at;
  Date.now = () => {
    clocks.systemReads++;
    return Math.floor(clocks.at + ahead);
  };
  return clocks;
}

const clockOfService = () => ({ seconds: -1, micros: 0 }); // never read: these answers take no reading

test("names the system clock's second at every instant, the first millisecond of each second included", () => {
  for (const ahead of [0, 0.25, 0.5, 0.9, 0.999, 400.7]) {
    const clocks = fakeClocks(ahead);
    const dated = new RequestClock(clockOfService);
    for (let at = 0; at < 4000; at += 0.05) {
      clocks.at = at;
      dated.begin(at);
      const second = dated.second();
      if (second !== Math.floor((at + ahead) / 1000)) throw new Error(`ahead ${ahead} ms, at ${at.toFixed(2)} ms: named ${second}`);
    }
    // ...and read the system clock about once a second, not per answer (80,000 answers here).
    expect(clocks.systemReads).toBeLessThan(4 * 25);
  }
});
