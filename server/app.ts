// The fetch handler around the API: who the client is (socket peer, or through trusted
// proxies), rate limits, the service's own paths (/, /health, /metrics), `Connection:
// close` while draining, metrics and the access log. Any exception that escapes is
// logged and answered with a JSON 500, never a stack trace (and every 500 is a bug).

import type { Server } from "bun";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { LoadedData } from "./data.ts";
import { endsWithTxt, handleApi } from "./http/api.ts";
import { peerAddress, resolveClient } from "./http/client-address.ts";
import { HttpError, METHOD_NOT_ALLOWED, NOT_FOUND } from "./http/http-errors.ts";
import { RateLimiter, type RateDecision } from "./http/rate-limiter.ts";
import { requestTarget } from "./http/request-target.ts";
import { logError, logEvent } from "./log.ts";
import { CLOCK_DIVERGENCE_BOUND_MS, ClockCheck } from "./ops/clock-check.ts";
import { readClockSync } from "./ops/clock-sync.ts";
import { PAGE_SECURITY_HEADERS, StaticSite } from "./http/static-site.ts";
import openapi from "./http/openapi.json" with { type: "json" };
import { Metrics, routeOf, type MetricsSnapshot } from "./ops/metrics.ts";

export interface AppState {
  data: LoadedData;
  clock: Clock;
  config: Config;
  limiter: RateLimiter | null;
  metrics: Metrics;
  /** Set on SIGTERM: every answer carries `Connection: close`, readiness fails. */
  draining: boolean;
  startedAt: number;
  /** Which worker process this is ("0" when running alone). */
  workerId: string;
  /** The built website, or null when site/dist is absent (API only). */
  site: StaticSite | null;
  /** In a supervisor's worker: the whole instance's counts, collected at scrape time (ops/metrics-exchange.ts). */
  instanceMetrics: (() => Promise<MetricsSnapshot>) | null;
  /** The serving clock compared with the system clock: a divergence fails readiness. */
  clockCheck: ClockCheck;
}

/** `rateMemory`: the rate table's memory, shared by an instance's workers (private when alone). */
export function createAppState(data: LoadedData, clock: Clock, config: Config, workerId = "0", rateMemory?: ArrayBuffer): AppState {
  return {
    data,
    clock,
    config,
    limiter: config.rateLimit ? new RateLimiter(config.rateLimit, rateMemory) : null,
    metrics: new Metrics(),
    draining: false,
    startedAt: Date.now(),
    workerId,
    site: StaticSite.load(config.siteDir),
    instanceMetrics: null,
    clockCheck: new ClockCheck(clock, undefined, { worker: workerId }),
  };
}

/** Ready to take traffic: not draining, and the clock that answers is the system's time. */
function isReady(state: AppState): boolean {
  return !state.draining && state.clockCheck.check().agrees;
}

/** Synchronous, except a worker's /metrics, which waits for the other workers' counts. */
export type FetchHandler = (req: Request, server: Server<unknown> | null) => Response | Promise<Response>;

const HEALTH_ROUTE = 3;
const METRICS_ROUTE = 4;

export function createFetchHandler(state: AppState): FetchHandler {
  const trust = { trusted: state.config.trustedProxies, header: state.config.trustProxyHeader };
  return (req, server) => {
    const started = performance.now();
    const target = requestTarget(req.url);
    const peer = peerAddress(req, server);
    let client = peer;
    let limitKey = peer;
    if (trust.trusted.length > 0) ({ address: client, limitKey } = resolveClient(peer, req.headers, trust));
    const route = routeOf(target.path);
    let response: Response;
    let decision: RateDecision | null = null;
    if (route === METRICS_ROUTE && state.instanceMetrics !== null && (req.method === "GET" || req.method === "HEAD")) {
      return state.instanceMetrics().then(
        (total) => metricsResponse(state, req.method === "HEAD", total),
        (error) => {
          logError("metrics_unavailable", error);
          return state.data.responses.error(new HttpError("metrics_unavailable", 503, "metrics unavailable: the supervisor did not answer"), "json", req.method === "HEAD");
        },
      ).then((r) => finish(state, req.method, target.path, route, client, started, null, r));
    }
    try {
      // The probes and the scrape are never limited: a limit must not fail a health check.
      decision = route === HEALTH_ROUTE || route === METRICS_ROUTE || state.limiter === null ? null : state.limiter.take(limitKey);
      const refusal = decision?.allowed === false ? rateLimited(state, decision, req.method, target.path) : null;
      response = refusal ??
        handleApi({ method: req.method, target, ifNoneMatch: () => req.headers.get("if-none-match"), clientAddress: client }, state.data, state.clock) ??
        serviceRoute(req.method, target.path, state);
    } catch (error) {
      logError("request_failed", error, { method: req.method, path: target.path.slice(0, 256) });
      response = internalError(state);
    }
    return finish(state, req.method, target.path, route, client, started, decision, response);
  };
}

/** What every answer gets on its way out: rate limit headers, `Connection: close` when draining, metrics, the access log. */
function finish(state: AppState, method: string, path: string, route: number, client: string | null, started: number, decision: RateDecision | null, response: Response): Response {
  if (decision?.limited) {
    // On every answer of a limited route, not only on 429 (draft-ietf-httpapi-ratelimit-headers).
    response.headers.set("RateLimit-Policy", state.config.rateLimit!.policy);
    response.headers.set("RateLimit", `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
  }
  if (state.draining) response.headers.set("Connection", "close");
  const seconds = (performance.now() - started) / 1000;
  state.metrics.observe(route, response.status, seconds);
  if (state.config.accessLog) {
    logEvent("request", {
      method: method.slice(0, 16),
      path: path.slice(0, 256),
      status: response.status,
      client,
      ms: Math.round(seconds * 1e6) / 1000,
    });
  }
  return response;
}

function rateLimited(state: AppState, decision: RateDecision, method: string, path: string): Response {
  state.metrics.rateLimited++;
  const { burst, windowSeconds } = state.limiter!;
  const error = new HttpError("rate_limited", 429, `too many requests: the limit is ${burst} per ${windowSeconds} seconds per client`);
  return state.data.responses.error(error, endsWithTxt(path) ? "text" : "json", method === "HEAD", {
    "Retry-After": String(decision.resetSeconds),
  });
}

function serviceRoute(method: string, path: string, state: AppState): Response {
  const { responses } = state.data;
  const head = method === "HEAD";
  if (method === "OPTIONS") return responses.preflight();
  if (method !== "GET" && !head) return responses.methodNotAllowed("json", METHOD_NOT_ALLOWED());
  const json = (status: number, body: unknown, cache = "no-store") =>
    new Response(head ? null : JSON.stringify(body), {
      status,
      headers: responses.withBase({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": cache }),
    });
  if (path === "/health/live") return json(200, { live: true });
  if (path === "/health/ready") {
    const ready = isReady(state);
    return json(ready ? 200 : 503, { ready });
  }
  if (path === "/health") {
    const report = healthReport(state);
    return json(report.ready ? 200 : 503, report);
  }
  if (path === "/metrics") return metricsResponse(state, head, state.metrics.snapshot());
  if (path === "/openapi.json") return json(200, openapi, "public, max-age=3600");
  const site = state.site;
  if (site === null) {
    if (path === "/") {
      return json(200, {
        service: "zonetime",
        tzdb: state.data.zones.tzdbVersion,
        endpoints: ["/timezone", "/timezone/{area}", "/timezone/{name}", "/ip", "/ip/{address}", "/api/... (WorldTimeAPI profile)", "/health", "/metrics", "/openapi.json"],
      }, "public, max-age=300");
    }
    return responses.error(NOT_FOUND(), "json", head);
  }
  const file = site.lookup(path);
  const page = file ?? site.notFound;
  if (!page) return responses.error(NOT_FOUND(), "json", head);
  const headers: Record<string, string> = { "Content-Type": page.type, "Cache-Control": file ? page.cacheControl : "no-store" };
  if (page.type.startsWith("text/html")) Object.assign(headers, PAGE_SECURITY_HEADERS);
  return new Response(head ? null : Bun.file(page.path), { status: file ? 200 : 404, headers: responses.withBase(headers) });
}

/** /metrics: `total` is the instance's counts (this process's own when it runs alone). */
function metricsResponse(state: AppState, head: boolean, total: MetricsSnapshot): Response {
  const manifestIp = state.data.manifest.ip as { source?: string; dataDate?: string } | undefined;
  const body = state.metrics.render({
    worker: state.workerId,
    workers: state.config.workers,
    tzdb: state.data.zones.tzdbVersion,
    ipSource: manifestIp?.source ?? "unknown",
    ipDate: manifestIp?.dataDate ?? "unknown",
    uptimeSeconds: Math.floor((Date.now() - state.startedAt) / 1000),
    clockDivergences: state.clockCheck.divergences,
  }, total);
  return new Response(head ? null : body, {
    headers: state.data.responses.withBase({ "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" }),
  });
}

export function healthReport(state: AppState) {
  const ip = state.data.manifest.ip as { source?: string; version?: string; dataDate?: string } | undefined;
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
  };
}

export function internalError(state: AppState): Response {
  return state.data.responses.error(new HttpError("internal", 500, "internal error"), "json", false);
}
