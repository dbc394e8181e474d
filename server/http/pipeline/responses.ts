// Every response the service sends is made here (the API's, /health, /metrics, the
// website's files), so the headers every answer must carry (CORS, nosniff, the tzdb
// version, HSTS) cannot be forgotten on one path. Header sets are built once per data
// version, not per request.
//
// HEAD: a response is made with the body GET would send. Bun sends no body to HEAD but
// the headers that body implies (its Content-Length), so HEAD and GET carry the same
// headers.
//
// Date: every answer names the second of the reading its body was made from
// (request-clock.ts). A Response copies the Headers it is given, so the shared Headers of
// the frequent answers carry the Date themselves, set once a second when it turns (`dated`),
// and the handler leaves those answers be; setting Date on each Response's own copy was 3%
// of a request's CPU. The handler dates every other answer (handler.ts, finish).

import { ZonetimeError } from "../../core/errors.ts";
import type { Format } from "../../time-object/time-object.ts";
import type { CachedAnswer } from "../caching/answer-cache.ts";
import { httpDate } from "./http-date.ts";
import type { RequestClock } from "./request-clock.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";
/** /device.csv: posix_tz_db's two-column CSV. */
export const CSV_TYPE = "text/csv; charset=utf-8";
const PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
/** timeapi.io's conversions and calculations take a JSON body. */
export const ALLOWED_WITH_POST = "GET, HEAD, POST, OPTIONS";
const PREFLIGHT_MAX_AGE = "86400";
export const TZDB_VERSION_HEADER = "X-Tzdb-Version";
/** /coordinates where the boundary data gives a place more than one zone: the others. */
export const OTHER_TIMEZONES_HEADER = "X-Other-Timezones";

export class Responses {
  private readonly base: Record<string, string>;
  // Headers instances, built once: Bun copies a Headers faster than a plain object.
  private readonly live: Record<Format, Headers>;
  private readonly errors: Record<Format, Record<string, string>>;
  private readonly cacheableHeaders = new Map<string, Record<string, string>>();
  /** By cache policy, then content type: both are constants of the code, no key built per request. */
  private readonly dialectHeadersByPolicy = new Map<string, Map<string, Headers>>();
  private readonly syncHeaders: Headers;
  private readonly constants = new Map<string, { body: Blob; etag: string; headers: Headers }>();
  private readonly siteHeaders = new WeakMap<object, { ok?: Headers; missing?: Headers; etag?: string }>();
  /** The second each shared Headers' Date names. */
  private readonly datedSecond = new WeakMap<Headers, number>();

  /** `extraHeaders` go on every response (HSTS when serving TLS); `clock` dates the answers (without it, the handler or Bun does). */
  constructor(tzdbVersion: string, extraHeaders: Record<string, string> = {}, private readonly clock: RequestClock | null = null) {
    this.base = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": `${TZDB_VERSION_HEADER}, ${OTHER_TIMEZONES_HEADER}, ETag, Retry-After, RateLimit, RateLimit-Policy`,
      "X-Content-Type-Options": "nosniff",
      [TZDB_VERSION_HEADER]: tzdbVersion,
      ...extraHeaders,
    };
    const make = (type: string, cache: Record<string, string>) => ({ ...this.base, "Content-Type": type, ...cache });
    this.errors = {
      json: make(JSON_TYPE, { "Cache-Control": "no-store" }),
      text: make(TEXT_TYPE, { "Cache-Control": "no-store" }),
    };
    this.live = { json: new Headers(this.errors.json), text: new Headers(this.errors.text) };
    this.syncHeaders = new Headers({
      ...this.errors.json,
      "Access-Control-Expose-Headers": `${this.base["Access-Control-Expose-Headers"]}, Server-Timing`,
      "Timing-Allow-Origin": "*",
    });
  }

  /** A time object: never cached, it is stale a microsecond later. */
  timeObject(body: Uint8Array, format: Format, head: boolean): Response {
    return this.dated(body, 200, this.live[format]);
  }

  /** A time object for a place the data gives more than one zone: the first answers, the
   *  others are named in a header (the time object keeps its fixed keys). Rare: disputed areas. */
  timeObjectWithOthers(body: Uint8Array, format: Format, head: boolean, others: readonly string[]): Response {
    const response = this.dated(body, 200, this.live[format]);
    response.headers.set(OTHER_TIMEZONES_HEADER, others.join(", ")); // on the Response's own copy (see sync)
    return response;
  }

  /** The headers of a time object (the benchmark's floor baseline sends the same). */
  timeObjectHeaders(format: Format): Headers {
    return this.live[format];
  }

  /**
   * /sync: the clock's timestamps. Never stored; `Timing-Allow-Origin` and `Server-Timing`
   * (the same t1 and t2 as the body, as `dur` values) let a page read them from Resource
   * Timing too, cross-origin included.
   */
  sync(body: string, serverTiming: string, head: boolean): Response {
    // A Response copies the Headers it is given: the one header of its own goes on that
    // copy, not on a second one made first (in process, 530 -> 350 ns a Response).
    const response = this.dated(body, 200, this.syncHeaders);
    response.headers.set("Server-Timing", serverTiming);
    return response;
  }

  /** The headers of a cacheable answer but its ETag, made once per format (or content type) and Cache-Control (caching/cache-policy.ts). */
  private cacheHeaders(format: Format, cacheControl: string, type = format === "json" ? JSON_TYPE : TEXT_TYPE): Record<string, string> {
    const key = `${type}${cacheControl}`;
    let headers = this.cacheableHeaders.get(key);
    if (headers === undefined) {
      headers = { ...this.base, "Content-Type": type, "Cache-Control": cacheControl };
      // max-age follows the clock for some answers (info until the next change): keep a bounded few.
      if (this.cacheableHeaders.size < 512) this.cacheableHeaders.set(key, headers);
    }
    return headers;
  }

  /**
   * An answer that depends on its query and the data alone (transitions, zone info, a
   * conversion, a list of names): cacheable as `cacheControl` says (the route's policy), with the ETag of its
   * normalised query and the data version (cacheable-answer.ts). Its Headers are made once
   * per entry and Cache-Control, then reused: Bun copies a Headers natively, a plain object slowly.
   */
  cachedAnswer(entry: CachedAnswer, format: Format, head: boolean, cacheControl: string, type?: string): Response {
    if (entry.headers === null || entry.cacheControl !== cacheControl) {
      entry.headers = new Headers({ ...this.cacheHeaders(format, cacheControl, type), ETag: entry.etag });
      entry.cacheControl = cacheControl;
    }
    return this.dated(entry.body, 200, entry.headers);
  }

  /** 304: the client's copy (If-None-Match) is the current one. */
  notModified(etag: string, format: Format, cacheControl: string, type?: string): Response {
    return new Response(null, { status: 304, headers: { ...this.cacheHeaders(format, cacheControl, type), ETag: etag } });
  }

  /** If-None-Match holds `*` or a list of (possibly weak) entity tags: the weak comparison (RFC 9110 13.1.2). */
  etagMatches(header: string, etag: string): boolean {
    return etagMatches(header, etag);
  }

  /** The one error shape: {"error": message}, or the message as text for `.txt`. */
  error(error: ZonetimeError, format: Format, head: boolean, extra?: Record<string, string>): Response {
    const body = format === "json" ? JSON.stringify({ error: error.message }) : `${error.message}\n`;
    return answer(body, { status: error.status, headers: extra ? { ...this.errors[format], ...extra } : this.errors[format] });
  }

  /** CORS preflight: no body, which methods and headers may follow, and for how long. */
  preflight(allowed = ALLOWED_METHODS): Response {
    return new Response(null, {
      status: 204,
      headers: {
        ...this.base,
        "Access-Control-Allow-Methods": allowed,
        "Access-Control-Allow-Headers": "*",
        "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
        Allow: allowed,
        "Cache-Control": "public, max-age=86400",
      },
    });
  }

  /**
   * A JSON document that is the same for as long as these Responses serve (/openapi.json, the
   * API's index without a site): encoded once under `name`, its Headers made once. Its ETag
   * is its content's hash, as Bun gives such an answer when it sends it natively
   * (native-answers.ts), so GET and HEAD carry the same headers on either path. `vary`: the
   * request header it was chosen by (`/` by Accept), if any.
   */
  constantJson(name: string, body: () => unknown, cacheControl: string, head: boolean, ifNoneMatch: string | null, vary: string | null = null): Response {
    let made = this.constants.get(name);
    if (made === undefined) {
      const text = JSON.stringify(body());
      const etag = contentEtag(text);
      made = { body: new Blob([text]), etag, headers: new Headers({ ...this.base, "Content-Type": JSON_TYPE, "Cache-Control": cacheControl, ETag: etag, ...(vary === null ? {} : { Vary: vary }) }) };
      this.constants.set(name, made);
    }
    if (ifNoneMatch !== null && etagMatches(ifNoneMatch, made.etag)) return new Response(null, { status: 304, headers: made.headers });
    return this.dated(made.body, 200, made.headers);
  }

  /**
   * A dialect's answer (timeapi.io, TimeZoneDB, Google): its own body, type, status and
   * cache policy, with the headers every answer carries. `chunked`: sent with
   * Transfer-Encoding: chunked in one chunk, as timeapi.io's Kestrel does (SenseCAP's
   * firmware skips a 3-digit chunk size before the JSON). `vary`: the request header the
   * answer was chosen by (Google's Accept-Language).
   */
  dialect(body: string | Blob, type: string, status: number, head: boolean, options: { cacheControl?: string; vary?: string; chunked?: boolean; extra?: Record<string, string> } = {}): Response {
    const cacheControl = options.cacheControl ?? "no-store";
    const headers = options.extra === undefined ? this.dialectHeaders(type, cacheControl, options.vary)
      : { ...this.base, "Content-Type": type, "Cache-Control": cacheControl, ...options.extra };
    if (options.chunked && !head && typeof body === "string") { // timeapi.io's answers: made per request, never a kept Blob
      const bytes = new TextEncoder().encode(body);
      // Bun's direct stream: written to the socket as it is, the same one chunk on the wire as
      // a standard stream's (test/http/dialects/timeapi-chunked.test.ts), for less work
      // (/api/TimeZone/zone over HTTP, pinned: 15.7 -> 14.2 us of CPU a request). Bun sends a
      // short body (a Time/current answer, about 230 bytes) with Content-Length either way.
      const stream = new ReadableStream({ type: "direct", pull(controller) { controller.write(bytes); controller.end(); } });
      return headers instanceof Headers ? this.dated(stream, status, headers) : new Response(stream, { status, headers });
    }
    return headers instanceof Headers ? this.dated(body, status, headers) : answer(body, { status, headers });
  }

  /** A dialect's answer kept with its headers (dialects/kept-answers.ts): recalled, nothing to look up but the Date. */
  keptDialect(body: Blob, headers: Headers): Response {
    return this.dated(body, 200, headers);
  }

  /** A dialect's headers but its extra ones, made once per content type, cache policy and Vary (a bounded few: max-age follows the clock for some). */
  dialectHeaders(type: string, cacheControl: string, vary: string | undefined): Headers {
    const policy = vary === undefined ? cacheControl : `${cacheControl}|${vary}`;
    let byType = this.dialectHeadersByPolicy.get(policy);
    if (byType === undefined) {
      byType = new Map();
      if (this.dialectHeadersByPolicy.size < 512) this.dialectHeadersByPolicy.set(policy, byType);
    }
    let headers = byType.get(type);
    if (headers === undefined) {
      headers = new Headers({ ...this.base, "Content-Type": type, "Cache-Control": cacheControl, ...(vary === undefined ? {} : { Vary: vary }) });
      byType.set(type, headers); // a dialect has a handful of content types
    }
    return headers;
  }

  /** A JSON document of the service's own (/health, /openapi.json, the API index). */
  json(status: number, body: unknown, cacheControl: string, head: boolean): Response {
    return answer(JSON.stringify(body), {
      status,
      headers: { ...this.base, "Content-Type": JSON_TYPE, "Cache-Control": cacheControl },
    });
  }

  /** /metrics: Prometheus text, never cached. */
  metrics(body: string, head: boolean): Response {
    return answer(body, { headers: { ...this.base, "Content-Type": PROMETHEUS_TYPE, "Cache-Control": "no-store" } });
  }

  /**
   * A file of the website, from memory; `made` builds its headers (type, cache and, for
   * pages, the security headers), once per file and status, kept while the file object lives.
   */
  siteFile(file: object, body: Uint8Array, status: number, made: () => Record<string, string>, head: boolean, ifNoneMatch: string | null): Response {
    let kept = this.siteHeaders.get(file);
    if (kept === undefined) this.siteHeaders.set(file, (kept = {}));
    let headers = status === 200 ? kept.ok : kept.missing;
    if (headers === undefined) {
      headers = new Headers({ ...this.base, ...made() });
      // A file's ETag is its content's hash (see constantJson); the 404 page has none.
      if (status === 200) headers.set("ETag", (kept.etag = contentEtag(body)));
      if (status === 200) kept.ok = headers;
      else kept.missing = headers;
    }
    if (status === 200 && ifNoneMatch !== null && etagMatches(ifNoneMatch, kept.etag!)) return new Response(null, { status: 304, headers });
    return this.dated(body, status, headers);
  }

  /** An answer made with shared `headers`, their Date first set to the answer's second if it has turned (see the top of this file). */
  private dated(body: Bun.BodyInit, status: number, headers: Headers): Response {
    const clock = this.clock;
    if (clock === null) return answer(body, { status, headers });
    const second = clock.second();
    if (this.datedSecond.get(headers) !== second) {
      headers.set("Date", httpDate(second * 1000));
      this.datedSecond.set(headers, second);
    }
    return (clock.dated = answer(body, { status, headers }));
  }
}

/** A response with its body, for HEAD too (see the top of this file). Every answer with a body is made here. */
export function answer(body: Bun.BodyInit, init: ResponseInit): Response {
  return new Response(body, init);
}

/** A strong ETag naming these exact bytes. */
function contentEtag(content: string | Uint8Array): string {
  return `"${Bun.hash(content).toString(16).padStart(16, "0")}"`;
}

/** A list of names as JSON, or one per line. */
export function listBody(names: readonly string[], format: Format): string {
  return format === "json" ? JSON.stringify(names) : names.length ? `${names.join("\n")}\n` : "";
}

/** If-None-Match holds `*` or a list of (possibly weak) entity tags. */
function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
