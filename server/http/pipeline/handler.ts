// The fetch handler: who the client is (socket peer, or through trusted proxies), rate
// limits, the route table (routing/) and then the website, `Connection: close` while
// draining, metrics and the access log. Any exception that escapes is logged and answered
// with a JSON 500, never a stack trace (and every 500 is a bug).

import type { Server } from "bun";
import { logError, logEvent } from "../../core/log.ts";
import { httpDate } from "./http-date.ts";
import type { RequestClock } from "./request-clock.ts";
import { acceptsHtml, refusesHtml } from "./accepts-html.ts";
import type { AppState } from "../contract.ts";
import { Memo } from "../caching/memo.ts";
import { MB, URL_KEY } from "../caching/memos.ts";
import { LIVE, SITE_PAGE, siteVary } from "../caching/cache-policy.ts";
import { chooseSiteEncoding, type SiteEncoding } from "../bun/site-encoding.ts";
import { clientOf, type ProxyTrust } from "./client-address.ts";
import { DUPLICATE_HOST, HttpError, METHOD_NOT_ALLOWED, NOT_FOUND } from "./http-errors.ts";
import { ALLOWED_METHODS, ALLOWED_WITH_POST } from "./responses.ts";
import { ZonetimeError } from "../../core/errors.ts";
import type { RateDecision } from "../limits/rate-limiter.ts";
import { CLIENT_CLOSED_STATUS, endsConnection, readBody } from "./request-body.ts";
import { requestTarget, type RequestTarget } from "./request-target.ts";
import { API_PREFIX } from "../routing/route-table.ts";
import { matchRequest, REFUSED_PATH } from "../routing/match-route.ts";
import type { FetchHandler, RawPath, RouteMatch, RouteRequest } from "../contract.ts";
import { PAGE_SECURITY_HEADERS } from "../bun/static-site.ts";
import { answerInRelease } from "../time-machine/with-tzdb.ts";



/** `counted: false`: answers made for the service itself (native-answers.ts), not counted in /metrics nor logged. */
export function createFetchHandler(state: AppState, options: { counted?: boolean } = {}): FetchHandler {
  const counted = options.counted ?? true;
  const trust: ProxyTrust = { trusted: state.config.trustedProxies, header: state.config.trustProxyHeader };
  // What the answer cost (contract.ts, RouteRequest.cost): one holder, the handler being
  // synchronous; `later`: the request of an answer made in turns, whose cost may grow.
  const spent: Spent = { cost: 1, later: null };
  // The Date header names the second of the reading this request's body was made from (request-clock.ts).
  const dated = state.requestClock;
  // One RouteRequest, refilled per request (the handler is synchronous but on `later` rows): no object or closure per request.
  const request = new PipelineRequest(state, trust, dated.read);
  // Each URL's target and route, kept (routing is 12% of a time object's CPU in process).
  const routes = new Memo<RoutedTarget>("routes", { maxEntries: 4096, maxKeyLength: URL_KEY, maxBytes: 4 * MB }, () => ROUTED_BYTES);
  if (counted) state.metrics.memoSources.push(() => [routes]);
  return (req, server, raw) => {
    const started = performance.now();
    dated.begin(started);
    const url = req.url;
    const method = req.method; // a getter into Bun: read once
    const { target, match: routedMatch, release } = routedTarget(routes, url);
    // Who the client is costs Bun about a microsecond (requestIP): resolved here only when a
    // limit or the access log needs it for every request, else when a route reads it.
    let client: string | null = null;
    let limitKey: string | null = null;
    const eager = state.limiter !== null || state.config.accessLog;
    if (eager) ({ address: client, limitKey } = clientOf(req, server, trust));
    // Two Host headers (which Bun joins with ", ") make the request invalid (RFC 9112 section 3.2): 400, and the connection ends.
    const host = req.headers.get("host");
    if (host !== null && host.indexOf(",") >= 0) {
      const refused = state.data.responses.error(DUPLICATE_HOST(), "json", method === "HEAD", { Connection: "close" });
      return finish(state, dated, counted, method, target.path, REFUSED_PATH, client, started, null, refused);
    }
    const match = raw === undefined ? routedMatch : checkedMatch(routedMatch, raw);
    let response: Response | Promise<Response>;
    let decision: RateDecision | null = null;
    try {
      // Admitted while the client has a token, charged 1; the rest of an answer's cost once it is known.
      spent.cost = 1;
      spent.later = null;
      decision = state.limiter !== null && (match.route === null || match.route.limited) ? state.limiter.take(limitKey, 1) : null;
      response = decision?.allowed === false ? rateLimited(state, decision, req, target, match) : respond(req, method, server, url, target, match, release, eager ? client : UNRESOLVED, state, spent, request);
      if (decision?.allowed && spent.cost > 1) decision = state.limiter!.charge(limitKey, spent.cost - 1);
    } catch (error) {
      response = failedRequest(state, method, target.path, error);
    }
    if (response instanceof Promise) {
      const { later } = spent;
      const charged = spent.cost;
      return response
        .then((r) => r, (error) => failedRequest(state, method, target.path, error))
        .then((r) => {
          // What an answer made in turns cost beyond what was charged up front (its body's size).
          if (later !== null && decision?.allowed && later.cost > charged) decision = state.limiter!.charge(limitKey, later.cost - charged);
          // Other requests have read the request clock meanwhile: this answer is dated as it leaves.
          dated.begin();
          return finish(state, dated, counted, method, target.path, match, client, started, decision, r);
        });
    }
    return finish(state, dated, counted, method, target.path, match, client, started, decision, response);
  };
}

/** What the answer being made costs; `later`: the request of an answer made later (its row's `later`). */
interface Spent {
  cost: number;
  later: PipelineRequest | null;
}

/** A URL's target and route: pure functions of the URL and the static route table. */
interface RoutedTarget {
  target: RequestTarget;
  match: RouteMatch;
  /** The route takes `?tzdb=` (RouteRow.tzdb) and the query names it: answered from that release (time-machine/with-tzdb.ts). */
  release: boolean;
}

/** A routed target's objects beside its key: its slices, match and params (2.7 MB of heap for 4,096 entries of 256-character URLs, measured). */
const ROUTED_BYTES = 400;

/**
 * A URL's target (path and query) and route: pure functions of the URL and the static
 * route table, and clients ask the same few URLs again and again (a clock polls its zone
 * every minute), so they are kept per URL, per handler (no data in them: a reload changes
 * nothing). The result is shared between requests: frozen.
 */
function routedTarget(memo: Memo<RoutedTarget>, url: string): RoutedTarget {
  const known = memo.get(url);
  if (known !== undefined) return known;
  const target = Object.freeze(requestTarget(url));
  const match = matchRequest(target.path, target.query);
  Object.freeze(match.params);
  const release = match.route?.tzdb === true && target.query.indexOf("tzdb=") >= 0;
  const routed: RoutedTarget = Object.freeze({ target, match: Object.freeze(match), release });
  memo.set(url, routed);
  return routed;
}

/** An exception no route answered: logged, and a JSON 500 (a bug, never the client's stack trace). */
function failedRequest(state: AppState, method: string, path: string, error: unknown): Response {
  logError("request_failed", error, { method, path: path.slice(0, 256) });
  return internalError(state);
}

/** The parsed path's route, if the path as sent was under that route too; else refused. */
function checkedMatch(match: RouteMatch, raw: RawPath): RouteMatch {
  if (raw.refused) return REFUSED_PATH;
  if (match.family === raw.family) return match;
  // A caseless row (timeapi.io's `/api/TimeZone/zone`): its first segment as sent is in any
  // case, which the raw routes know only in lower case or as a path under `/api`.
  if (match.caseless && (raw.family === API_PREFIX || raw.family.toLowerCase() === match.family)) return match;
  return REFUSED_PATH;
}

/** What every answer gets on its way out: rate limit headers, `Connection: close` when draining, metrics, the access log. */
function finish(state: AppState, dated: RequestClock, counted: boolean, method: string, path: string, match: RouteMatch, client: string | null, started: number, decision: RateDecision | null, response: Response): Response {
  // Most answers come with their Date in their shared Headers (responses.ts); the rest get it here.
  if (response !== dated.dated) response.headers.set("Date", httpDate(dated.second() * 1000));
  if (decision?.limited) {
    // On every answer of a limited route, not only on 429 (draft-ietf-httpapi-ratelimit-headers).
    response.headers.set("RateLimit-Policy", state.config.rateLimit!.policy);
    response.headers.set("RateLimit", `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
  }
  if (state.draining) response.headers.set("Connection", "close");
  if (!counted) return response;
  const seconds = (performance.now() - started) / 1000;
  state.metrics.observe(match.label, response.status, seconds);
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

/** The RouteRequest a GET or HEAD is handed, its fields set for each request in turn (a POST, or a row answering in turns, gets its own). */
class PipelineRequest implements RouteRequest {
  profile: RouteRequest["profile"] = "spec";
  format: RouteRequest["format"] = "json";
  head = false;
  params: readonly string[] = [];
  query = "";
  url: string | null = null;
  data: RouteRequest["data"];
  clock: RouteRequest["clock"];
  cache: RouteRequest["cache"] = LIVE;
  cost = 1;
  req: Request | null = null;
  server: Server<unknown> | null = null;
  /** The client's address once resolved; UNRESOLVED until a route reads it. */
  client: string | null | typeof UNRESOLVED = UNRESOLVED;
  readonly trust: ProxyTrust;

  /** `clock`: the service's clock, remembering the reading for the Date header. */
  constructor(state: AppState, trust: ProxyTrust, clock: RouteRequest["clock"]) {
    this.data = state.data;
    this.clock = clock;
    this.trust = trust;
  }

  get clientAddress(): string | null {
    if (this.client === UNRESOLVED) this.client = clientOf(this.req!, this.server, this.trust).address;
    return this.client;
  }

  ifNoneMatch(): string | null {
    return this.req!.headers.get("if-none-match");
  }

  header(name: string): string | null {
    return this.req!.headers.get(name);
  }

  /** Its answer made: the request and server let go. */
  release(): void {
    this.req = null;
    this.server = null;
  }
}

/** A client address not resolved yet. */
const UNRESOLVED = Symbol("unresolved client");

/**
 * `client`: the client's address, or UNRESOLVED: not known yet (PipelineRequest resolves it
 * when read). The common answer (a GET or HEAD on a row that answers at once, from the
 * current release) is made here; the rest each have a function of their own, so that this
 * one stays small. Holding them all, once it had served every route the JIT recompiled it
 * into code twice the size (7.3 KB, BUN_JSC_reportDFGCompileTimes) that made every answer
 * slower: /sync 3.4-4.3% against the same code fresh, the routes late in a list 2-4% over
 * HTTP (issue 31). Split, the same code reads 0.1-0.5%.
 */
function respond(req: Request, method: string, server: Server<unknown> | null, url: string, target: RequestTarget, match: RouteMatch, release: boolean, client: string | null | typeof UNRESOLVED, state: AppState, spent: Spent, reused: PipelineRequest): Response | Promise<Response> {
  const head = method === "HEAD";
  const route = match.route;
  try {
    if (method !== "GET" && !head) return otherMethod(req, server, target, match, client, state, reused);
    if (route === null) {
      if (match.api) throw NOT_FOUND(); // an unknown path under /api
      return sitePage(target.path, head, req.headers, state);
    }
    // A row that may answer later gets a request of its own: the reused one is the next request's.
    const own = route.later ? new PipelineRequest(state, reused.trust, reused.clock) : reused;
    own.profile = match.profile;
    own.format = match.format;
    own.head = head;
    own.params = match.params;
    own.query = target.query;
    own.url = url;
    own.client = client;
    own.req = req;
    own.server = server;
    own.data = state.data; // a reload replaces the data
    own.cache = route.cache;
    own.cost = 1;
    if (route.later || release) return answerOfRow(req, target, match, release, state, spent, own);
    try {
      const response = route.handle(own, state);
      spent.cost = own.cost;
      if (response instanceof Promise) throw new Error(`${route.label}: an answer made later on a row not marked later`);
      return response;
    } finally {
      own.release(); // no request kept alive past its answer
    }
  } catch (error) {
    return refusal(state, req, target, match, head, error);
  }
}

/** OPTIONS (the CORS preflight), POST where the row takes a body, else 405. */
function otherMethod(req: Request, server: Server<unknown> | null, target: RequestTarget, match: RouteMatch, client: string | null | typeof UNRESOLVED, state: AppState, reused: PipelineRequest): Response | Promise<Response> {
  const method = req.method;
  const route = match.route;
  const allowed = route?.post ? ALLOWED_WITH_POST : ALLOWED_METHODS;
  if (method === "OPTIONS") return state.data.responses.preflight(allowed);
  if (method !== "POST" || route === null || route.post === undefined) return errorAnswer(state, req, target, match, false, METHOD_NOT_ALLOWED(), { Allow: allowed });
  const post = route.post;
  const request: RouteRequest = {
    profile: match.profile,
    format: match.format,
    head: false,
    params: match.params,
    query: target.query,
    url: null,
    clientAddress: client === UNRESOLVED ? clientOf(req, server, reused.trust).address : client,
    ifNoneMatch: () => req.headers.get("if-none-match"),
    header: (name) => req.headers.get(name),
    data: state.data,
    clock: reused.clock,
    cache: route.cache,
    cost: 1,
  };
  const contentType = req.headers.get("content-type");
  // Other requests have used the request clock while the body arrived: this answer's reading is its own.
  return readBody(req).then((body) => (state.requestClock.begin(), post(request, body, contentType))).catch((error) => {
    state.requestClock.begin();
    if (!(error instanceof HttpError)) throw error;
    // Not the service's fault, but an operator wants to see it: one line, on stdout with the events.
    if (error.status === CLIENT_CLOSED_STATUS || endsConnection(error)) logEvent("request_body_refused", { code: error.code, status: error.status, path: target.path.slice(0, 256) });
    return errorAnswer(state, req, target, match, false, error, endsConnection(error) ? { Connection: "close" } : undefined);
  });
}

/** A row that may answer later (its request `own` is its own), or an answer from an older release (`?tzdb=`). */
function answerOfRow(req: Request, target: RequestTarget, match: RouteMatch, release: boolean, state: AppState, spent: Spent, own: PipelineRequest): Response | Promise<Response> {
  const route = match.route!;
  let later = false;
  try {
    const response = release ? answerInRelease(route.handle, own, state) : route.handle(own, state);
    spent.cost = own.cost;
    if (!(response instanceof Promise)) return response;
    if (!route.later) throw new Error(`${route.label}: an answer made later on a row not marked later`);
    later = true;
    spent.later = own;
    return response.then(
      (answer) => (own.release(), answer),
      (error) => (own.release(), refusal(state, req, target, match, own.head, error)),
    );
  } finally {
    if (!later) own.release(); // no request kept alive past its answer
  }
}

/** A client's mistake answered in the route's error shape; anything else thrown on (a bug: a 500). */
function refusal(state: AppState, req: Request, target: RequestTarget, match: RouteMatch, head: boolean, error: unknown): Response {
  if (error instanceof HttpError) return errorAnswer(state, req, target, match, head, error);
  // A lower layer's refusal of the client's input (names/: a bad lang, q or country) is a 4xx too.
  if (error instanceof ZonetimeError && error.status >= 400 && error.status < 500) return errorAnswer(state, req, target, match, head, new HttpError(error.code, error.status, error.message));
  throw error;
}

/** A client's mistake, in the route's dialect's error shape, else in the path's own format (`.txt`: text; JSON elsewhere). */
function errorAnswer(state: AppState, req: Request, target: RequestTarget, match: RouteMatch, head: boolean, error: HttpError, extra?: Record<string, string>): Response {
  const dialect = match.route?.dialect;
  if (dialect) return dialect.error({ query: target.query, head, data: state.data, header: (name) => req.headers.get(name) }, error, extra);
  const format = match.api ? match.format : "json";
  return extra ? state.data.responses.error(error, format, head, extra) : state.data.responses.error(error, format, head);
}

/**
 * The website's file at `path`, or (without a website) the API's index at `/`. An unknown
 * path is the site's 404 page for a client that asks for HTML, the JSON error for any other.
 */
function sitePage(path: string, head: boolean, headers: Headers, state: AppState): Response {
  const { responses } = state.data;
  // An API client at the root (Accept: application/json) gets the API's index, never the home page.
  const site = path === "/" && refusesHtml(headers.get("accept")) ? null : state.site;
  if (site === null) {
    if (path !== "/") throw NOT_FOUND();
    return responses.constantJson("index", () => ({
      service: "zonetime",
      tzdb: state.data.zones.tzdbVersion,
      endpoints: ["/timezone", "/timezone/{area}", "/timezone/{name}", "/ip", "/ip/{address}", "/clock?zones=", "/sync?t0=", "/api/... (WorldTimeAPI profile)", "/health", "/metrics", "/openapi.json"],
    }), SITE_PAGE, head, headers.get("if-none-match"), state.site === null ? null : siteVary(true, false));
  }
  const file = site.lookup(path);
  const page = file ?? (acceptsHtml(headers.get("accept")) ? site.notFound : null);
  if (!page) throw NOT_FOUND();
  // The build's Brotli or gzip copy when the client takes one (each copy has its own ETag).
  const codings = Object.keys(page.encoded) as SiteEncoding[];
  const coding = chooseSiteEncoding(headers.get("accept-encoding"), codings);
  const sent = coding ? page.encoded[coding]! : page;
  return responses.siteFile(sent, sent.body, file ? 200 : 404, () => {
    const headers: Record<string, string> = { "Content-Type": page.type, "Cache-Control": file ? page.cacheControl : "no-store" };
    if (page.type.startsWith("text/html")) Object.assign(headers, PAGE_SECURITY_HEADERS);
    if (coding) headers["Content-Encoding"] = coding;
    // `/` is negotiated by Accept (above); its file is also served at /index.html, which shares these headers.
    const vary = siteVary(page === site.lookup("/"), codings.length > 0);
    if (vary !== null) headers["Vary"] = vary;
    return headers;
  }, head, headers.get("if-none-match"));
}

function rateLimited(state: AppState, decision: RateDecision, req: Request, target: RequestTarget, match: RouteMatch): Response {
  state.metrics.rateLimited++;
  const { burst, windowSeconds } = state.limiter!;
  const error = new HttpError("rate_limited", 429, `too many requests: the limit is ${burst} per ${windowSeconds} seconds per client`);
  return errorAnswer(state, req, target, match, req.method === "HEAD", error, { "Retry-After": String(decision.resetSeconds) });
}

export function internalError(state: AppState): Response {
  return state.data.responses.error(new HttpError("internal", 500, "internal error"), "json", false);
}
