// Every response the service sends is made here (the API's, /health, /metrics, the
// website's files), so the headers every answer must carry (CORS, nosniff, the tzdb
// version, HSTS) cannot be forgotten on one path. Header sets are built once per data
// version, not per request.
//
// HEAD: a response is made with the body GET would send. Bun sends no body to HEAD but
// the headers that body implies (its Content-Length), so HEAD and GET carry the same
// headers; the Date that Bun leaves off HEAD answers is added here.

import { ZonetimeError } from "../core/errors.ts";
import type { Format } from "../time-object/time-object.ts";
import { httpDate } from "./http-date.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";
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
  private readonly lists: Record<Format, Headers>;
  private readonly tzdbVersion: string;
  readonly listEtag: string;

  /** `extraHeaders` go on every response (HSTS when serving TLS). */
  constructor(tzdbVersion: string, listFingerprint: string, extraHeaders: Record<string, string> = {}) {
    this.base = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": `${TZDB_VERSION_HEADER}, ${OTHER_TIMEZONES_HEADER}, ETag, Retry-After, RateLimit, RateLimit-Policy`,
      "X-Content-Type-Options": "nosniff",
      [TZDB_VERSION_HEADER]: tzdbVersion,
      ...extraHeaders,
    };
    this.tzdbVersion = tzdbVersion;
    this.listEtag = `"tz-${tzdbVersion}-${listFingerprint}"`;
    const make = (type: string, cache: Record<string, string>) => ({ ...this.base, "Content-Type": type, ...cache });
    this.errors = {
      json: make(JSON_TYPE, { "Cache-Control": "no-store" }),
      text: make(TEXT_TYPE, { "Cache-Control": "no-store" }),
    };
    this.live = { json: new Headers(this.errors.json), text: new Headers(this.errors.text) };
    const listCache = { "Cache-Control": "public, max-age=3600", ETag: this.listEtag };
    this.lists = { json: new Headers(make(JSON_TYPE, listCache)), text: new Headers(make(TEXT_TYPE, listCache)) };
  }

  /** A time object: never cached, it is stale a microsecond later. */
  timeObject(body: Uint8Array, format: Format, head: boolean): Response {
    return answer(body, { headers: this.live[format] }, head);
  }

  /** A time object for a place the data gives more than one zone: the first answers, the
   *  others are named in a header (the time object keeps its fixed keys). Rare: disputed areas. */
  timeObjectWithOthers(body: Uint8Array, format: Format, head: boolean, others: readonly string[]): Response {
    const headers = new Headers(this.live[format]);
    headers.set(OTHER_TIMEZONES_HEADER, others.join(", "));
    return new Response(head ? null : body, { headers });
  }

  /** The headers of a time object (the benchmark's floor baseline sends the same). */
  timeObjectHeaders(format: Format): Headers {
    return this.live[format];
  }

  /** A list of names: cacheable, revalidated by an ETag derived from the data version. */
  list(names: readonly string[], format: Format, head: boolean, ifNoneMatch: string | null): Response {
    if (ifNoneMatch !== null && etagMatches(ifNoneMatch, this.listEtag)) {
      return new Response(null, { status: 304, headers: this.lists[format] });
    }
    return answer(listBody(names, format), { headers: this.lists[format] }, head);
  }

  /**
   * An answer that depends on its query and the data alone (transitions, zone info, a
   * conversion): cacheable for `maxAge` seconds, revalidated by an ETag of the data
   * version and the body, so it changes exactly when the answer does.
   */
  cacheable(body: string, format: Format, head: boolean, ifNoneMatch: string | null, maxAge: number): Response {
    const etag = `"tz-${this.tzdbVersion}-${Bun.hash(body).toString(36)}"`;
    const headers = { ...this.base, "Content-Type": format === "json" ? JSON_TYPE : TEXT_TYPE, "Cache-Control": `public, max-age=${maxAge}`, ETag: etag };
    if (ifNoneMatch !== null && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
    return new Response(head ? null : body, { headers });
  }

  /** The one error shape: {"error": message}, or the message as text for `.txt`. */
  error(error: ZonetimeError, format: Format, head: boolean, extra?: Record<string, string>): Response {
    const body = format === "json" ? JSON.stringify({ error: error.message }) : `${error.message}\n`;
    return answer(body, { status: error.status, headers: extra ? { ...this.errors[format], ...extra } : this.errors[format] }, head);
  }

  methodNotAllowed(format: Format, error: ZonetimeError): Response {
    return this.error(error, format, false, { Allow: ALLOWED_METHODS });
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
   * A dialect's answer (timeapi.io, TimeZoneDB, Google): its own body, type, status and
   * cache policy, with the headers every answer carries. `chunked`: sent with
   * Transfer-Encoding: chunked in one chunk, as timeapi.io's Kestrel does (SenseCAP's
   * firmware skips a 3-digit chunk size before the JSON).
   */
  dialect(body: string, type: string, status: number, head: boolean, options: { cacheControl?: string; chunked?: boolean; extra?: Record<string, string> } = {}): Response {
    const headers = { ...this.base, "Content-Type": type, "Cache-Control": options.cacheControl ?? "no-store", ...options.extra };
    if (options.chunked && !head) {
      const bytes = new TextEncoder().encode(body);
      const stream = new ReadableStream<Uint8Array>({ start(controller) { controller.enqueue(bytes); controller.close(); } });
      return new Response(stream, { status, headers });
    }
    return answer(body, { status, headers }, head);
  }

  /** A JSON document of the service's own (/health, /openapi.json, the API index). */
  json(status: number, body: unknown, cacheControl: string, head: boolean): Response {
    return answer(JSON.stringify(body), {
      status,
      headers: { ...this.base, "Content-Type": JSON_TYPE, "Cache-Control": cacheControl },
    }, head);
  }

  /** /metrics: Prometheus text, never cached. */
  metrics(body: string, head: boolean): Response {
    return answer(body, { headers: { ...this.base, "Content-Type": PROMETHEUS_TYPE, "Cache-Control": "no-store" } }, head);
  }

  /** A file of the website, from memory; `headers` are its type, cache and (for pages) security headers. */
  file(body: Uint8Array, status: number, headers: Record<string, string>, head: boolean): Response {
    return answer(body, { status, headers: { ...this.base, ...headers } }, head);
  }
}

/** A response with its body, for HEAD too (see the top of this file). */
function answer(body: Bun.BodyInit, init: ResponseInit, head: boolean): Response {
  const response = new Response(body, init);
  if (head) response.headers.set("Date", httpDate());
  return response;
}

const listBodies = new WeakMap<readonly string[], Record<Format, string>>();

/** A list array (the full one lives as long as its data) is rendered once; transient ones are collected with their entry. */
function listBody(names: readonly string[], format: Format): string {
  const cached = listBodies.get(names);
  if (cached) return cached[format];
  const bodies = { json: JSON.stringify(names), text: names.length ? `${names.join("\n")}\n` : "" };
  listBodies.set(names, bodies);
  return bodies[format];
}

/** If-None-Match holds `*` or a list of (possibly weak) entity tags. */
function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
