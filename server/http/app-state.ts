// What one serving process answers with: its data (replaced whole on reload), clock,
// configuration, rate limiter, metrics, drain flag and website.

import type { Clock } from "../core/clock.ts";
import { ClockCheck } from "../ops/clock-check.ts";
import { Metrics, type MetricsSnapshot } from "../ops/metrics.ts";
import type { Cidr } from "../ip/cidr.ts";
import { apiData, type ApiData, type Tables } from "./api-data.ts";
import { RateLimiter, type RateLimit, type RateLimitConfig } from "./rate-limiter.ts";
import { SharedRateLimiter } from "./shared-rate-limiter.ts";
import { ROUTE_LABELS } from "./routes.ts";
import { StaticSite } from "./static-site.ts";

/** The part of the process configuration (process/config.ts) that HTTP reads. */
export interface HttpConfig {
  trustedProxies: readonly Cidr[];
  /** The one header the trusted proxies write, lower case (TRUST_PROXY_HEADER). */
  trustProxyHeader: string;
  rateLimit: RateLimitConfig | null;
  /** A Redis URL: one bucket per client for every instance (RATE_LIMIT_STORE); null: this instance's own. */
  rateLimitStore: string | null;
  rateLimitStoreTimeoutMs: number;
  /** ANSWER_CACHE_BYTES: the answer cache's budget per worker (answer-cache.ts); 0 keeps nothing. */
  answerCacheBytes?: number;
  accessLog: boolean;
  /** Worker processes configured (reported in /metrics). */
  workers: number;
  /** Set when serving HTTPS: every answer then carries HSTS. */
  tls: object | null;
  siteDir: string;
}

export interface AppState {
  data: ApiData;
  clock: Clock;
  config: HttpConfig;
  /** The client budgets (rate-limiter.ts): any RateLimit, whatever keeps its state (the instance's table, or Redis). */
  limiter: RateLimit | null;
  /** The same object as `limiter` when the limit is shared through Redis (for /health). */
  sharedLimiter: SharedRateLimiter | null;
  metrics: Metrics;
  /** Set on SIGTERM: every answer carries `Connection: close`, readiness fails. */
  draining: boolean;
  startedAt: number;
  /** Which worker process this is ("0" when running alone). */
  workerId: string;
  /** The built website, or null when site/dist is absent (API only). */
  site: StaticSite | null;
  /** The serving clock compared with the system clock: a divergence fails readiness. */
  clockCheck: ClockCheck;
  /** In a supervisor's worker: the whole instance's counts, read from the shared metrics board (ops/metrics-exchange.ts); throws MetricsUnavailable. */
  instanceMetrics: (() => MetricsSnapshot) | null;
}

/** `rateMemory`: the rate table's memory, shared by an instance's workers (private when alone). */
export function createAppState(tables: Tables, clock: Clock, config: HttpConfig, workerId = "0", rateMemory?: ArrayBuffer): AppState {
  const metrics = new Metrics(ROUTE_LABELS);
  const local = config.rateLimit ? new RateLimiter(config.rateLimit, rateMemory) : null;
  const shared = local && config.rateLimitStore ? new SharedRateLimiter(config.rateLimit!, config.rateLimitStore, local, metrics.rateStore, config.rateLimitStoreTimeoutMs) : null;
  if (shared !== null) metrics.rateStoreState = () => shared.report().state;
  return {
    data: apiData(tables, config.tls !== null, config.answerCacheBytes),
    clock,
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
}
