// The service's own routes (their rows are in routes.ts): health probes, metrics, the
// OpenAPI document. /health reports data versions and both clocks' states; readiness
// fails while draining or when the serving clock leaves the system clock.

import { CLOCK_DIVERGENCE_BOUND_MS } from "../../ops/clock-check.ts";
import { readClockSync } from "../../ops/clock-sync.ts";
import { logError } from "../../core/log.ts";
import { MetricsUnavailable } from "../../ops/metrics-exchange.ts";
import type { MetricsSnapshot } from "../../ops/metrics.ts";
import { HttpError } from "../pipeline/http-errors.ts";
import type { AppState } from "../contract.ts";
import openapi from "../openapi.json" with { type: "json" };
import type { RouteRequest } from "../contract.ts";

const NO_STORE = "no-store";

/** Ready to take traffic: not draining, and the clock that answers is the system's time. */
export function isReady(state: AppState): boolean {
  return !state.draining && state.clockCheck.check().agrees;
}

export function healthLive(request: RouteRequest): Response {
  return request.data.responses.json(200, { live: true }, NO_STORE, request.head);
}

export function healthReady(request: RouteRequest, state: AppState): Response {
  const ready = isReady(state);
  return request.data.responses.json(ready ? 200 : 503, { ready }, NO_STORE, request.head);
}

export function health(request: RouteRequest, state: AppState): Response {
  const report = healthReport(state);
  return request.data.responses.json(report.ready ? 200 : 503, report, NO_STORE, request.head);
}

/** /metrics: the instance's counts (a supervisor's worker reads them from the shared board), else this process's own. */
export function metrics(request: RouteRequest, state: AppState): Response {
  let total: MetricsSnapshot;
  try {
    total = state.instanceMetrics?.() ?? state.metrics.snapshot();
  } catch (error) {
    if (!(error instanceof MetricsUnavailable)) throw error;
    logError("metrics_unavailable", error);
    return request.data.responses.error(new HttpError("metrics_unavailable", 503, `metrics unavailable: ${error.message}`), "json", request.head);
  }
  return metricsResponse(state, request.head, total);
}

/** /metrics: `total` is the instance's counts (this process's own when it runs alone). */
export function metricsResponse(state: AppState, head: boolean, total: MetricsSnapshot): Response {
  const ip = state.data.manifest?.ip;
  const body = state.metrics.render({
    worker: state.workerId,
    workers: state.config.workers,
    tzdb: state.data.zones.tzdbVersion,
    ipSource: ip?.source ?? "unknown",
    ipDate: ip?.dataDate ?? "unknown",
    uptimeSeconds: Math.floor((Date.now() - state.startedAt) / 1000),
  }, total);
  return state.data.responses.metrics(body, head);
}

export function openapiDocument(request: RouteRequest): Response {
  return request.data.responses.constantJson("openapi", () => openapi, request.cache.cacheControl(3600), request.head, request.ifNoneMatch());
}

/** "timezone-boundary-builder 2026d (geo-tz 8.1.9)", from geo.bin's own metadata. */
function boundariesOf(metadata: Record<string, unknown>): string | null {
  const { boundaryRelease, source, version } = metadata;
  return typeof boundaryRelease === "string" ? `timezone-boundary-builder ${boundaryRelease} (${String(source)} ${String(version)})` : null;
}

export function healthReport(state: AppState) {
  const ip = state.data.manifest?.ip;
  const clock = readClockSync();
  const ready = isReady(state);
  const serving = state.clockCheck.lastVerdict;
  return {
    status: state.draining ? "draining" : serving.agrees ? "ok" : "clock_diverged",
    live: true,
    ready,
    worker: state.workerId,
    uptime_seconds: Math.floor((Date.now() - state.startedAt) / 1000),
    data: {
      tzdb: state.data.zones.tzdbVersion,
      tables_built: state.data.zones.builtAt,
      ip_source: ip?.source ?? null,
      ip_version: ip?.version ?? null,
      ip_data_date: ip?.dataDate ?? null,
      boundaries: boundariesOf(state.data.geo.metadata),
    },
    clock: {
      // The clock that answers requests against Date.now(): beyond the bound, not ready.
      serving_clock_agrees: serving.agrees,
      serving_clock_skew_ms: Math.round(serving.skewMs * 1000) / 1000,
      serving_clock_bound_ms: CLOCK_DIVERGENCE_BOUND_MS,
      synchronised: clock.synchronised,
      kernel_state: clock.state,
      estimated_error_us: clock.estimatedErrorMicros,
      max_error_us: clock.maxErrorMicros,
    },
    // RATE_LIMIT_STORE's state as this worker sees it; readiness never depends on it (the
    // instance limits on its own meanwhile).
    rate_limit_store: state.sharedLimiter?.report() ?? null,
  };
}
