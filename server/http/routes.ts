// The service's routes as one table: one row per route, its path pattern, its handler and
// its metrics label. The metrics route labels are this table's labels (in row order), then
// "site" for the website and "other" for an unknown /api path or a refused raw path
// (raw-path-guard.ts). Adding an endpoint is
// adding a row; rows are tried in order, so a more specific pattern goes first
// (`/timezone/{name*}/info` before `/timezone/{name*}`).
//
// Patterns are matched on the raw (still percent-encoded) path, so `%2F` in a name is
// decoded only by the handler that expects a name and can never add a segment. A pattern
// is compiled once into literals and parameters; a request costs a few startsWith/indexOf
// calls, no regex.

import type { Clock } from "../core/clock.ts";
import type { Format, Profile } from "../time-object/time-object.ts";
import { callerIp, coordinates, ipAddress, timezoneList, timezoneName, worldTimeApiAlias } from "./api.ts";
import { apiIndex, convert, info, transitions } from "./zone-routes.ts";
import { places } from "./places-route.ts";
import { remembered } from "./cacheable-answer.ts";
import { device, deviceCsv, deviceIndex } from "./device-routes.ts";
import { worldClock } from "./world-clock.ts";
import { sync } from "./sync-route.ts";
import type { ApiData } from "./api-data.ts";
import type { AppState } from "./app-state.ts";
import type { HttpError } from "./http-errors.ts";
import { DIALECT_ROUTES } from "./dialects/dialect-routes.ts";
import { health, healthLive, healthReady, metrics, openapiDocument } from "./service-routes.ts";

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
   * (known-requests.ts); null where the answer also depends on a body (POST).
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
  /**
   * What the answer costs the client's rate limit budget (README, "What an answer costs"):
   * 1 unless the handler sets more (cost.ts), charged once the answer is made.
   */
  cost: number;
}

/** Answers through `request.data.responses`; throws an HttpError for a client's mistake. */
export type RouteHandler = (request: RouteRequest, state: AppState) => Response;

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
  handle: RouteHandler;
}

export const ROUTE_TABLE: readonly RouteRow[] = [
  // The dialects first: their paths are no name of WorldTimeAPI's (`/api/TimeZone/zone`
  // was an unknown location there), and every tz name keeps its meaning below.
  ...DIALECT_ROUTES,
  { pattern: "/timezone", on: "api", label: "timezone_list", limited: true, handle: remembered(timezoneList) },
  { pattern: "/timezone/{name*}/transitions", on: "api", label: "transitions", limited: true, handle: remembered(transitions) },
  { pattern: "/timezone/{name*}/info", on: "api", label: "info", limited: true, handle: remembered(info) },
  { pattern: "/timezone/{name*}/device", on: "api", label: "device", limited: true, handle: device },
  { pattern: "/timezone/{name*}", on: "api", label: "timezone", limited: true, handle: timezoneName },
  { pattern: "/device", on: "api", label: "device_list", limited: true, handle: deviceIndex },
  { pattern: "/device.csv", on: "api", label: "device_list", limited: true, text: false, handle: deviceCsv },
  { pattern: "/convert", on: "api", label: "convert", limited: true, handle: remembered(convert) },
  { pattern: "/ip", on: "api", label: "ip", limited: true, handle: callerIp },
  { pattern: "/ip/{address*}", on: "api", label: "ip", limited: true, handle: ipAddress },
  { pattern: "/coordinates/{point}", on: "api", label: "coordinates", limited: true, handle: coordinates },
  { pattern: "/places", on: "raw", label: "places", limited: true, handle: remembered(places) },
  { pattern: "/clock", on: "api", label: "clock", limited: true, handle: worldClock },
  // Spec profile, JSON only: the smallest answer, and a clock offset has no WorldTimeAPI form.
  { pattern: "/sync", on: "raw", label: "sync", limited: true, handle: sync },
  { pattern: "/health", on: "raw", label: "health", limited: false, handle: health },
  { pattern: "/health/live", on: "raw", label: "health", limited: false, handle: healthLive },
  { pattern: "/health/ready", on: "raw", label: "health", limited: false, handle: healthReady },
  { pattern: "/metrics", on: "raw", label: "metrics", limited: false, handle: metrics },
  { pattern: "/openapi.json", on: "raw", label: "site", limited: true, handle: openapiDocument },
  // Last: under /api, "/" is the index and any other name is WorldTimeAPI's short form of /api/timezone/{name}.
  { pattern: "/", on: "api", label: "api_index", limited: true, only: "wta", handle: apiIndex },
  { pattern: "/{name*}", on: "api", label: "timezone", limited: true, only: "wta", handle: worldTimeApiAlias },
];

/** The WorldTimeAPI profile's prefix. */
export const API_PREFIX = "/api";
const SITE_LABEL = "site";
const OTHER_LABEL = "other";

/** Every metrics route label: the table's, in row order, then the website's and an unknown /api path's. */
export const ROUTE_LABELS: readonly string[] = [...new Set([...ROUTE_TABLE.map((r) => r.label), SITE_LABEL, OTHER_LABEL])];

/** `param` null: a literal; else a parameter (`literal` ""). One shape, so the matcher's reads stay monomorphic. */
interface Token {
  literal: string;
  param: string | null;
  anyText: boolean;
}

interface CompiledRoute {
  row: RouteRow;
  tokens: Token[];
  /** The pattern when it has no parameter: matched by one comparison. */
  exact: string | null;
  label: number;
  /** RouteMatch.family for this row at the root and under /api. */
  family: { spec: string; wta: string };
  caseless: boolean;
}

/**
 * `/timezone` for `/timezone/{name*}`: the row's first segment, as a path; "" when the row
 * has no literal first segment (`/` and `/{name*}`, the /api index and alias rows).
 */
export function firstSegment(pattern: string): string {
  if (pattern === "/" || pattern.charCodeAt(1) === 123 /* { */) return "";
  let end = pattern.length;
  for (const stop of ["/", "{"]) {
    const at = pattern.indexOf(stop, 1);
    if (at > 0 && at < end) end = at;
  }
  return pattern.slice(0, end);
}

function compile(row: RouteRow): CompiledRoute {
  const tokens: Token[] = [];
  let at = 0;
  while (at < row.pattern.length) {
    const open = row.pattern.indexOf("{", at);
    if (open < 0) {
      tokens.push({ literal: row.pattern.slice(at), param: null, anyText: false });
      break;
    }
    if (open > at) tokens.push({ literal: row.pattern.slice(at, open), param: null, anyText: false });
    const close = row.pattern.indexOf("}", open);
    if (close < 0) throw new Error(`route pattern ${row.pattern}: "{" without "}"`);
    const name = row.pattern.slice(open + 1, close);
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last.param !== null) throw new Error(`route pattern ${row.pattern}: two parameters need a literal between them`);
    tokens.push(name.endsWith("*") ? { literal: "", param: name.slice(0, -1), anyText: true } : { literal: "", param: name, anyText: false });
    at = close + 1;
  }
  const only = tokens.length === 1 ? tokens[0]! : null;
  const first = firstSegment(row.pattern);
  return {
    row, tokens, exact: only !== null && only.param === null ? only.literal : null, label: ROUTE_LABELS.indexOf(row.label),
    family: { spec: first, wta: `${API_PREFIX}${first}` },
    caseless: row.caseless === true,
  };
}

const NO_PARAMS: readonly string[] = Object.freeze([]);

/** The parameters of `path` under `route`, or null when it does not match. */
function matchTokens(route: CompiledRoute, path: string, source = path): readonly string[] | null {
  if (route.exact !== null) return path === route.exact ? NO_PARAMS : null;
  const { tokens } = route;
  // Made at the first parameter: most rows tried fail on a literal before it.
  let params: string[] | null = null;
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.param === null) {
      if (!path.startsWith(token.literal, at)) return null;
      at += token.literal.length;
      continue;
    }
    const next = tokens[i + 1];
    let end: number;
    if (next === undefined) end = path.length;
    else if (token.anyText && i + 2 === tokens.length) end = path.endsWith(next.literal) ? path.length - next.literal.length : -1;
    else end = path.indexOf(next.literal, at);
    if (end < at) return null;
    const value = source.slice(at, end);
    if (!token.anyText && (value.length === 0 || value.includes("/"))) return null;
    (params ??= []).push(value);
    at = end;
  }
  return at === path.length ? params ?? NO_PARAMS : null;
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

const COMPILED = ROUTE_TABLE.map(compile);

/**
 * The rows a path can match, by its first segment and profile, in table order: the rows
 * under that segment and those with no literal first segment. One Map lookup instead of
 * trying every row. A row whose first segment runs into a parameter (`/x{y}`) could match
 * a longer segment, and a raw row sees another path, so those are tried for every path.
 * Caseless rows (timeapi.io's) are kept apart, by their first segment in lower case, and
 * tried first: they all come before every other row in the table (checked here).
 */
interface Candidates {
  bySegment: Map<string, CompiledRoute[]>;
  any: CompiledRoute[];
  caselessBySegment: Map<string, CompiledRoute[]>;
}

function candidates(): Record<Profile, Candidates> {
  const firstCased = COMPILED.findIndex((r) => !r.caseless);
  if (firstCased >= 0 && COMPILED.slice(firstCased).some((r) => r.caseless)) throw new Error("routes.ts: caseless rows must come before every other row");
  const make = (profile: Profile): Candidates => {
    const eligible = COMPILED.filter((r) => !(r.row.on === "raw" && profile === "wta") && !(r.row.only === "wta" && profile !== "wta"));
    const segmentOf = (r: CompiledRoute) => {
      const first = firstSegment(r.row.pattern);
      // A raw row matches the path as sent (`.txt` and a trailing slash kept): tried for every path, by one comparison when exact.
      return first !== "" && r.row.on !== "raw" && r.row.pattern.charCodeAt(first.length) !== 123 /* { */ ? first : "";
    };
    const cased = eligible.filter((r) => !r.caseless);
    const any = cased.filter((r) => segmentOf(r) === "");
    const bySegment = new Map<string, CompiledRoute[]>();
    for (const r of cased) {
      const first = segmentOf(r);
      if (first !== "" && !bySegment.has(first)) bySegment.set(first, cased.filter((o) => segmentOf(o) === first || segmentOf(o) === ""));
    }
    const caselessBySegment = new Map<string, CompiledRoute[]>();
    for (const r of eligible) {
      if (!r.caseless) continue;
      const first = segmentOf(r);
      if (first === "") throw new Error(`routes.ts: caseless row ${r.row.pattern} needs a literal first segment`);
      caselessBySegment.set(first, [...(caselessBySegment.get(first) ?? []), r]);
    }
    return { bySegment, any, caselessBySegment };
  };
  return { spec: make("spec"), wta: make("wta") };
}
const CANDIDATES = candidates();
const SITE = ROUTE_LABELS.indexOf(SITE_LABEL);
const OTHER = ROUTE_LABELS.indexOf(OTHER_LABEL);
const SLASH = 47;

/** A-Z to a-z, every other character kept: the same length, so offsets in it are offsets in `path`. */
function asciiLower(path: string): string {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c >= 65 && c <= 90) return path.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return path;
}

/** True when `path` ends in `.txt`, any case (char codes: no substring or case-folding allocation on the hot path). */
export function endsWithTxt(path: string): boolean {
  const n = path.length;
  return n > 4 && path.charCodeAt(n - 4) === 46 && (path.charCodeAt(n - 3) | 32) === 116 &&
    (path.charCodeAt(n - 2) | 32) === 120 && (path.charCodeAt(n - 1) | 32) === 116;
}

/** A path refused before routing (raw-path-guard.ts): matched by no row, answered the JSON 404. */
export const REFUSED_PATH: RouteMatch = Object.freeze({ route: null, params: NO_PARAMS, profile: "spec", format: "json", label: OTHER, api: true, family: "" });

export function matchRoute(rawPath: string): RouteMatch {
  // timeapi.io's paths in any case, its `/api` too (`/API/Time/current/zone`): there only its caseless rows answer.
  if (rawPath.length >= 5 && rawPath.charCodeAt(4) === SLASH && !rawPath.startsWith(API_PREFIX) && rawPath.slice(0, 4).toLowerCase() === API_PREFIX) {
    const folded = matchRoute(API_PREFIX + rawPath.slice(4));
    if (folded.caseless) return folded;
  }
  let path = rawPath;
  let profile: Profile = "spec";
  if (path.startsWith(API_PREFIX) && (path.length === 4 || path.charCodeAt(4) === SLASH || (path.length === 8 && endsWithTxt(path)))) {
    profile = "wta";
    // `/api.txt` is the index as text, as `/api/.txt` is (and `/timezone.txt` is `/timezone`'s).
    path = path.length === 4 ? "/" : path.length === 8 && path.charCodeAt(4) !== SLASH ? `/${path.slice(4)}` : path.slice(4);
  }
  let format: Format = "json";
  if (endsWithTxt(path)) {
    format = "text";
    path = path.slice(0, -4);
  }
  if (path.length > 1 && path.charCodeAt(path.length - 1) === SLASH) path = path.slice(0, -1);
  // Raw rows take one trailing slash too (`/sync/`), as README promises of every path.
  const rawPathNoSlash = rawPath.length > 1 && rawPath.charCodeAt(rawPath.length - 1) === SLASH ? rawPath.slice(0, -1) : rawPath;
  const slash = path.indexOf("/", 1);
  const segment = slash < 0 ? path : path.slice(0, slash);
  const table = CANDIDATES[profile];
  if (format === "json" && table.caselessBySegment.size > 0) {
    const caseless = table.caselessBySegment.get(asciiLower(segment));
    if (caseless !== undefined) {
      const lower = asciiLower(path);
      for (let i = 0; i < caseless.length; i++) {
        const route = caseless[i]!;
        // Literals compared in lower case, parameters taken from the path as sent.
        const params = matchTokens(route, lower, path);
        if (params !== null) {
          return { route: route.row, params, profile, format, label: route.label, api: true, family: route.family[profile], caseless: true };
        }
      }
    }
  }
  const rows = table.bySegment.get(segment) ?? table.any;
  for (let i = 0; i < rows.length; i++) {
    const route = rows[i]!;
    const raw = route.row.on === "raw";
    if (format === "text" && route.row.text === false) continue;
    const params = matchTokens(route, raw ? rawPathNoSlash : path);
    if (params !== null) {
      return { route: route.row, params, profile, format: raw ? "json" : format, label: route.label, api: !raw, family: route.family[profile] };
    }
  }
  const wta = profile === "wta";
  return { route: null, params: NO_PARAMS, profile, format, label: wta ? OTHER : SITE, api: wta, family: wta ? API_PREFIX : "" };
}
