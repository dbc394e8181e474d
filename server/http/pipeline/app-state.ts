// One serving process's AppState (contract.ts), made from its tables, clock and configuration.

import { deviceIntervalsOf } from "../../device/device-intervals.ts";
import type { Clock } from "../../core/clock.ts";
import { ClockCheck } from "../../ops/clock-check.ts";
import { Metrics } from "../../ops/metrics.ts";
import { apiData, type Tables } from "./api-data.ts";
import { RateLimiter } from "../limits/rate-limiter.ts";
import { SharedRateLimiter } from "../limits/shared-rate-limiter.ts";
import { ROUTE_LABELS } from "../routing/route-table.ts";
import { olderReleaseMemos } from "../caching/memos.ts";
import type { AppState, HttpConfig } from "../contract.ts";
import { StaticSite } from "../bun/static-site.ts";
import { RequestClock } from "./request-clock.ts";

/** `rateMemory`: the rate table's memory, shared by an instance's workers (private when alone). */
export function createAppState(tables: Tables, clock: Clock, config: HttpConfig, workerId = "0", rateMemory?: ArrayBuffer): AppState {
  const metrics = new Metrics(ROUTE_LABELS);
  const local = config.rateLimit ? new RateLimiter(config.rateLimit, rateMemory) : null;
  const shared = local && config.rateLimitStore ? new SharedRateLimiter(config.rateLimit!, config.rateLimitStore, local, metrics.rateStore, config.rateLimitStoreTimeoutMs) : null;
  if (shared !== null) metrics.rateStoreState = () => shared.report().state;
  const requestClock = new RequestClock(clock);
  const state: AppState = {
    data: apiData(tables, config.tls !== null, requestClock, config.answerCacheBytes),
    clock,
    requestClock,
    config,
    limiter: shared ?? local,
    sharedLimiter: shared,
    metrics,
    draining: false,
    startedAt: Date.now(),
    workerId,
    site: StaticSite.load(config.siteDir),
    clockCheck: new ClockCheck(clock, () => metrics.clockDivergences++, undefined, { worker: workerId }),
    instanceMetrics: null,
  };
  metrics.memoSources.push(() => [...Object.values(state.data.memos), state.data.releaseData, state.data.releaseQueries, state.data.historyBuilds]);
  // Each older release's data has stores of its own (a sixteenth of the bounds): reported together.
  metrics.memoSources.push(() => olderReleaseMemos(state.data.releaseTallies, [...state.data.releaseData.values()].map((d) => d.memos)));
  metrics.memoSources.push(() => [deviceIntervalsOf(state.data.zones)]); // the device strings kept per stretch (device/device-intervals.ts)
  return state;
}
