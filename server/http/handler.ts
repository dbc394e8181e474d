// The fetch handler around the API: who the client is (socket peer, or through trusted
// proxies), rate limits, the service's own paths (/, /health, /metrics), `Connection:
// close` while draining, metrics and the access log. Any exception that escapes is
// logged and answered with a JSON 500, never a stack trace (and every 500 is a bug).

import type { Server } from "bun";
import type { Clock } from "../core/clock.ts";
import type { Config } from "../process/config.ts";
import { apiData, endsWithTxt, handleApi, type ApiData, type Tables } from "./api.ts";
import { peerAddress, resolveClient } from "./client-address.ts";
import { HttpError, METHOD_NOT_ALLOWED, NOT_FOUND } from "./http-errors.ts";
import { RateLimiter } from "./rate-limiter.ts";
import { requestTarget } from "./request-target.ts";
import { logError, logEvent } from "../core/log.ts";
import { CLOCK_DIVERGENCE_BOUND_MS, ClockCheck } from "../ops/clock-check.ts";
import { readClockSync } from "../ops/clock-sync.ts";
import { PAGE_SECURITY_HEADERS, StaticSite } from "./static-site.ts";
import openapi from "./openapi.json" with { type: "json" };
import { Metrics, routeOf } from "../ops/metrics.ts";

export interface AppState {
  data: ApiData;
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
  /** The serving clock compared with the system clock: a divergence fails readiness. */
  clockCheck: ClockCheck;
}

export function createAppState(tables: Tables, clock: Clock, config: Config, workerId = "0"): AppState {
  return {
    data: apiData(tables, config.tls !== null),
    clock,
    config,
    limiter: config.rateLimit ? new RateLimiter(config.rateLimit) : null,
    metrics: new Metrics(),
    draining: false,
    startedAt: Date.now(),
    workerId,
    site: StaticSite.load(config.siteDir),
    clockCheck: new ClockCheck(clock, undefined, { worker: workerId }),
  };
}

/** Ready to take traffic: not draining, and the clock that answers is the system's time. */
function isReady(state: AppState): boolean {
  return !state.draining && state.clockCheck.check().agrees;
}

export type FetchHandler = (req: Request, server: Server<unknown> | null) => Response;

const HEALTH_ROUTE = 3;
const METRICS_ROUTE = 4;

export function createFetchHandler(state: AppState): FetchHandler {
  const trusted = state.config.trustedProxies;
  return (req, server) => {
    const started = performance.now();
    const target = requestTarget(req.url);
    const peer = peerAddress(req, server);
    const client = trusted.length > 0 ? resolveClient(peer, req.headers, trusted) : peer;
    const route = routeOf(target.path);
    let response: Response;
    try {
      const refusal = route === HEALTH_ROUTE || route === METRICS_ROUTE ? null : rateLimit(state, client, req.method, target.path);
      response = refusal ??
        handleApi({ method: req.method, target, ifNoneMatch: () => req.headers.get("if-none-match"), clientAddress: client }, state.data, state.clock) ??
        serviceRoute(req.method, target.path, state);
    } catch (error) {
      logError("request_failed", error, { method: req.method, path: target.path.slice(0, 256) });
      response = internalError(state);
    }
    if (state.draining) response.headers.set("Connection", "close");
    const seconds = (performance.now() - started) / 1000;
    state.metrics.observe(route, response.status, seconds);
    if (state.config.accessLog) {
      logEvent("request", {
        method: req.method.slice(0, 16),
        path: target.path.slice(0, 256),
        status: response.status,
        client,
        ms: Math.round(seconds * 1e6) / 1000,
      });
    }
    return response;
  };
}

function rateLimit(state: AppState, client: string | null, method: string, path: string): Response | null {
  if (state.limiter === null) return null;
  const decision = state.limiter.take(client);
  if (decision.allowed) return null;
  state.metrics.rateLimited++;
  const { burst, windowSeconds } = state.limiter;
  const error = new HttpError("rate_limited", 429, `too many requests: the limit is ${burst} per ${windowSeconds} seconds per client`);
  return state.data.responses.error(error, endsWithTxt(path) ? "text" : "json", method === "HEAD", {
    "Retry-After": String(decision.retryAfterSeconds),
    "RateLimit-Policy": state.config.rateLimit!.policy,
    RateLimit: `"default";r=0;t=${decision.retryAfterSeconds}`,
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
  if (path === "/metrics") {
    const manifestIp = state.data.manifest?.ip;
    const body = state.metrics.render({
      worker: state.workerId,
      workers: state.config.workers,
      tzdb: state.data.zones.tzdbVersion,
      ipSource: manifestIp?.source ?? "unknown",
      ipDate: manifestIp?.dataDate ?? "unknown",
      uptimeSeconds: Math.floor((Date.now() - state.startedAt) / 1000),
      clockDivergences: state.clockCheck.divergences,
    });
    return new Response(head ? null : body, {
      headers: responses.withBase({ "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" }),
    });
  }
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
