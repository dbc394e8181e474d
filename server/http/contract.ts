// The types every handler and the pipeline share: what a handler is given (RouteRequest),
// what it is (RouteHandler, PostHandler), a row of the route table (RouteRow), a path
// matched against it (RouteMatch), a dialect's error shape (Dialect), and what one serving
// process answers with (AppState). Types only: every room imports this file, and it
// imports no room's code, so the request path has no way back up.

import type { Server } from "bun";
import type { Clock } from "../core/clock.ts";
import type { ClockCheck } from "../ops/clock-check.ts";
import type { Metrics, MetricsSnapshot } from "../ops/metrics.ts";
import type { Cidr } from "../ip/cidr.ts";
import type { Format, Profile } from "../time-object/time-object.ts";
import type { ApiData } from "./pipeline/api-data.ts";
import type { HttpError } from "./pipeline/http-errors.ts";
import type { RateLimit, RateLimitConfig } from "./limits/rate-limiter.ts";
import type { SharedRateLimiter } from "./limits/shared-rate-limiter.ts";
import type { StaticSite } from "./bun/static-site.ts";
import type { CachePolicy } from "./caching/cache-policy.ts";
import type { RequestClock } from "./pipeline/request-clock.ts";

/** What a route's handler is given: the request as parsed, the data and the clock. */
export interface RouteRequest {
  profile: Profile;
  format: Format;
  /** HEAD: answered with the GET body, which Bun does not send (responses.ts adds the Date Bun leaves off). */
  head: boolean;
  /** The pattern's parameters in order, raw (percent-encoded: decode with safeDecode). */
  params: readonly string[];
  /** The raw query string without "?" (read with queryParam). */
  query: string;
  /**
   * req.url, the key under which a `remembered` row's answer is found again
   * (caching/memos.ts, answerKeys); null where the answer also depends on a body (POST).
   */
  url: string | null;
  /** The resolved client address (socket peer, or the trusted proxy's client), if known. */
  clientAddress: string | null;
  /** If-None-Match, read only when asked (reading headers materialises them). */
  ifNoneMatch: () => string | null;
  /** Any request header, read only when asked (Google's dialect reads Accept-Language). */
  header: (name: string) => string | null;
  data: ApiData;
  clock: Clock;
  /** The row's cache policy: who may keep the answer (caching/cache-policy.ts). */
  cache: CachePolicy;
  /**
   * What the answer costs the client's rate limit budget (docs/rate-limits.md):
   * 1 unless the handler sets more (limits/answer-cost.ts), charged once the answer is made.
   */
  cost: number;
}

/**
 * Answers through `request.data.responses`; throws an HttpError for a client's mistake.
 * Synchronous, but on a row marked `later`, whose long builds are answered later.
 */
export type RouteHandler = (request: RouteRequest, state: AppState) => Response | Promise<Response>;

/**
 * A dialect (timeapi.io, TimeZoneDB, Google): another service's wire contract at its own
 * paths. It owns its error shape: every HttpError of its rows (a handler's, a 405, a 429)
 * is answered through `error`, never in the service's own `{"error":...}` shape.
 */
export interface Dialect {
  name: string;
  error(request: DialectErrorContext, error: HttpError, extraHeaders?: Record<string, string>): Response;
}

/** What a dialect's error answer may read: the query (TimeZoneDB's `format`), HEAD, the responses. */
export interface DialectErrorContext {
  query: string;
  head: boolean;
  data: ApiData;
  /** The request's headers, read only when asked. */
  header: (name: string) => string | null;
}

/** A POST route's handler: the request as for GET, and the body as text (at most MAX_POST_BODY bytes). */
export type PostHandler = (request: RouteRequest, body: string, contentType: string | null) => Response;

export interface RouteRow {
  /** Literals and parameters: `{name}` is one segment (no "/"), `{name*}` any text, slashes included, possibly empty. */
  pattern: string;
  /**
   * "api": matched on the path after an `/api` prefix (the WorldTimeAPI profile), a `.txt`
   * suffix (plain text) and a trailing slash are taken off. "raw": the path exactly as
   * sent but for one trailing slash, spec profile, JSON (the service's own paths).
   */
  on: "api" | "raw";
  label: string;
  /** Who may keep its answers, and for how long (caching/cache-policy.ts; docs/shared-caches.md lists every row's). */
  cache: CachePolicy;
  /** False: never rate limited (probes and scrapes). */
  limited: boolean;
  /** "wta": only under `/api` (a pattern the website's paths at the root must keep). */
  only?: "wta";
  /**
   * Literals matched in any letter case (timeapi.io's clients send `/api/TimeZone/zone` and
   * `/api/timezone/zone` alike); the pattern is written in lower case. Never with `.txt`.
   */
  caseless?: boolean;
  /** False: the row has no `.txt` form (`/device.csv` is its own format; `/device.csv.txt` is a 404). */
  text?: false;
  /** The dialect whose error shape this row answers in (absent: the service's own). */
  dialect?: Dialect;
  /** The route also takes POST (timeapi.io's conversions and calculations). */
  post?: PostHandler;
  /**
   * Its handler may answer later: a build too long to hold the worker for is done in turns
   * (core/in-turns.ts: device lists) or on the history thread (time-machine/history-builds.ts:
   * what releases changed, the feeds). Its request is then its own (not the one the pipeline
   * refills for each synchronous answer); the cost set before the handler returns is charged
   * at once, whatever more the answer costs when it is made (limits/answer-cost.ts).
   */
  later?: true;
  /**
   * It answers from tz rules: `?tzdb=RELEASE` answers as that release would, from the
   * release's data (time-machine/with-tzdb.ts). The pipeline reads the query for it once
   * per URL, with the route; a row without it takes no `tzdb`.
   */
  tzdb?: true;
  handle: RouteHandler;
}

/** A path matched against the table. */
export interface RouteMatch {
  /** The row, or null: the website (spec paths) or an unknown /api path. */
  route: RouteRow | null;
  params: readonly string[];
  profile: Profile;
  format: Format;
  /** Index into ROUTE_LABELS. */
  label: number;
  /** Errors of this path answer in `format` (an API path), not always JSON. */
  api: boolean;
  /**
   * The raw prefix a path matched so must have been sent with (raw-path-guard.ts checks it):
   * the row's first segment (`/timezone`), under /api `/api/timezone`; `/api` for an unknown
   * /api path; "" for the website.
   */
  family: string;
  /** A caseless row: the raw prefix may be sent in any letter case (or fall under `/api` alone). */
  caseless?: boolean;
}


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
  /** `clock`, remembering the reading the current request's answer is made from (its Date). */
  requestClock: RequestClock;
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

/** What the handler is told about the raw path as Bun's router saw it (bun/raw-path-guard.ts): refused, or the family it was sent under. */
export type RawPath = { refused: true } | { refused: false; family: string };

/**
 * The fetch handler (pipeline/handler.ts). Synchronous, every answer but a POST's (an async
 * answer breaks a pipelined request behind it in Bun 1.4, issue 17 F10). `raw`: what Bun's
 * router saw of the path as sent; absent when called directly.
 */
export type FetchHandler = (req: Request, server: Server<unknown> | null, raw?: RawPath) => Response | Promise<Response>;
