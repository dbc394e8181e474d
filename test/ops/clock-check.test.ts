// A clock that stops takes the instance out of rotation: /health/ready and /health answer
// 503, the divergence is logged once and counted in /metrics, and readiness comes back
// when the clock agrees with the system clock again.

import { expect, spyOn, test } from "bun:test";
import { realtimeClock, type Clock, type Instant } from "../../server/core/clock.ts";
import { CLOCK_DIVERGENCE_BOUND_MS } from "../../server/ops/clock-check.ts";
import { testHandler } from "../support/test-server.ts";

/** The realtime clock until `stop()`, then the instant it last returned, until `resume()`. */
function stoppableClock(): { clock: Clock; stop(): void; resume(): void } {
  let frozen: Instant | null = null;
  let last: Instant = realtimeClock();
  return {
    clock: () => (frozen ?? (last = realtimeClock())),
    stop: () => (frozen = last),
    resume: () => (frozen = null),
  };
}

const get = (handle: (r: Request) => Response, path: string) => handle(new Request(`http://localhost${path}`));
const divergences = async (handle: (r: Request) => Response) =>
  Number(/^zonetime_clock_divergences_total (\d+)$/m.exec(await get(handle, "/metrics").text())?.[1]);

test("a stopped serving clock fails readiness, is logged once and counted, and recovers", async () => {
  const injected = stoppableClock();
  const handle = await testHandler(injected.clock);
  expect(get(handle, "/health/ready").status).toBe(200);
  expect(await divergences(handle)).toBe(0);

  injected.stop();
  await Bun.sleep(CLOCK_DIVERGENCE_BOUND_MS * 3);
  const written: string[] = [];
  const spy = spyOn(process.stdout, "write").mockImplementation((chunk: any) => (written.push(String(chunk)), true));
  let ready: Response, health: Response;
  try {
    ready = get(handle, "/health/ready");
    health = get(handle, "/health");
    get(handle, "/health/ready");
  } finally {
    spy.mockRestore();
  }
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ ready: false });
  expect(health.status).toBe(503);
  const report = (await health.json()) as any;
  expect(report.status).toBe("clock_diverged");
  expect(report.ready).toBe(false);
  expect(report.clock.serving_clock_agrees).toBe(false);
  expect(report.clock.serving_clock_skew_ms).toBeGreaterThan(CLOCK_DIVERGENCE_BOUND_MS);
  // Logged once for the divergence, not once per probe.
  const events = written.map((line) => JSON.parse(line).event).filter((e) => e === "clock_diverged");
  expect(events).toEqual(["clock_diverged"]);
  expect(await divergences(handle)).toBe(1);
  // Liveness is about the process, not the clock: it stays 200.
  expect(get(handle, "/health/live").status).toBe(200);

  injected.resume();
  expect(get(handle, "/health/ready").status).toBe(200);
  expect(get(handle, "/health").status).toBe(200);
  expect(await divergences(handle)).toBe(1);
}, 60_000);
