// The API's routes. Paths are matched on the raw (still percent-encoded) path, so `%2F`
// in a name is decoded only where a name is expected and can never add a route segment.
//
//   /timezone                       every name
//   /timezone/{area}[/{sub}]        the names under a prefix (America, America/Argentina)
//   /timezone/{name}                a time object (any Zone or Link, any letter case)
//   /ip, /ip/{address}              a time object for the caller's or any address
//   ...with `.txt` for plain text, a trailing slash allowed, `?at=` for another instant,
//   and all of it again under /api in the WorldTimeAPI profile.

import type { Clock, Instant } from "../core/clock.ts";
import type { Manifest } from "../formats/manifest.ts";
import { formatIp, parseIp } from "../ip/address.ts";
import type { IpTables } from "../ip/ip-locator.ts";
import { lookupKey } from "../ip/special-ranges.ts";
import type { Format, Profile } from "../time-object/time-object.ts";
import { TimeObjectRenderer } from "../time-object/renderer.ts";
import type { ZoneTable } from "../tz/zone-table.ts";
import { invalidAt, parseAt } from "./at-param.ts";
import { HttpError, MALFORMED_IP, MALFORMED_PATH, METHOD_NOT_ALLOWED, NOT_FOUND, UNKNOWN_LOCATION } from "./http-errors.ts";
import { queryParam, safeDecode, type RequestTarget } from "./request-target.ts";
import { Responses } from "./responses.ts";

/** generated/ as server/process/load-data.ts reads it: plain data, nothing of HTTP. */
export interface Tables {
  zones: ZoneTable;
  ip: IpTables;
  /** null when the data folder has none (tables built by hand, in tests). */
  manifest: Manifest | null;
}

/** What a request is answered from: the tables, and what HTTP derives from them once per load. Replaced as a whole on reload. */
export interface ApiData extends Tables {
  responses: Responses;
  renderer: TimeObjectRenderer;
}

/** HTTP Strict Transport Security for a year, on every HTTPS answer. */
const HSTS = "max-age=31536000; includeSubDomains";

/** The tables made ready to answer from: headers carrying their version, the list ETag, the renderer's templates. */
export function apiData(tables: Tables, tls: boolean): ApiData {
  const fingerprint = Bun.hash(tables.zones.names.join("\n")).toString(16);
  const extraHeaders: Record<string, string> = tls ? { "Strict-Transport-Security": HSTS } : {};
  return {
    ...tables,
    responses: new Responses(tables.zones.tzdbVersion, fingerprint, extraHeaders),
    renderer: new TimeObjectRenderer(tables.zones),
  };
}

export interface ApiRequest {
  method: string;
  /** The raw path and query (see request-target.ts). */
  target: RequestTarget;
  /** If-None-Match, read only by the routes that answer lists (reading headers materialises them). */
  ifNoneMatch: () => string | null;
  /** The resolved client address (socket peer, or the trusted proxy's client), if known. */
  clientAddress: string | null;
}

/** A name longer than this is no name: refuse it before any work. */
const MAX_NAME_LENGTH = 64;

interface Route {
  profile: Profile;
  format: Format;
  /** Path after the profile prefix and `.txt`, without a trailing slash. */
  path: string;
}

const SLASH = 47;

/** True when `path` ends in `.txt`, any case (char codes: no substring or case-folding allocation on the hot path). */
export function endsWithTxt(path: string): boolean {
  const n = path.length;
  return n > 4 && path.charCodeAt(n - 4) === 46 && (path.charCodeAt(n - 3) | 32) === 116 &&
    (path.charCodeAt(n - 2) | 32) === 120 && (path.charCodeAt(n - 1) | 32) === 116;
}

function parseRoute(rawPath: string): Route {
  let path = rawPath;
  let profile: Profile = "spec";
  if (path.startsWith("/api") && (path.length === 4 || path.charCodeAt(4) === SLASH)) {
    profile = "wta";
    path = path.length === 4 ? "/" : path.slice(4);
  }
  let format: Format = "json";
  if (endsWithTxt(path)) {
    format = "text";
    path = path.slice(0, -4);
  }
  if (path.length > 1 && path.charCodeAt(path.length - 1) === SLASH) path = path.slice(0, -1);
  return { profile, format, path };
}

/** Answers an API path, or returns null when the path is not the API's (the site's, then). */
export function handleApi(request: ApiRequest, data: ApiData, clock: Clock): Response | null {
  const target = request.target;
  const route = parseRoute(target.path);
  const isApiPath = route.path === "/timezone" || route.path.startsWith("/timezone/") ||
    route.path === "/ip" || route.path.startsWith("/ip/") || route.profile === "wta";
  if (!isApiPath) return null;

  const method = request.method;
  const head = method === "HEAD";
  if (method === "OPTIONS") return data.responses.preflight();
  if (method !== "GET" && !head) return data.responses.methodNotAllowed(route.format, METHOD_NOT_ALLOWED());

  try {
    return answer(route, target.query, request, data, clock, head);
  } catch (error) {
    if (error instanceof HttpError) return data.responses.error(error, route.format, head);
    throw error;
  }
}

function answer(route: Route, query: string, request: ApiRequest, data: ApiData, clock: Clock, head: boolean): Response {
  const { zones, responses } = data;
  const path = route.path;

  if (path === "/timezone") return responses.list(zones.names, route.format, head, request.ifNoneMatch());

  if (path.startsWith("/timezone/")) {
    const raw = path.slice("/timezone/".length);
    if (raw.length > MAX_NAME_LENGTH * 3) throw UNKNOWN_LOCATION();
    const name = safeDecode(raw);
    if (name === null) throw MALFORMED_PATH();
    if (name.length > MAX_NAME_LENGTH) throw UNKNOWN_LOCATION();
    const resolved = zones.resolve(name);
    if (resolved) {
      const instant = instantOf(query, clock);
      return responses.timeObject(data.renderer.render(resolved, instant, request.clientAddress, route.profile, route.format), route.format, head);
    }
    const under = namesUnder(zones, name);
    if (under.length > 0) return responses.list(under, route.format, head, request.ifNoneMatch());
    throw UNKNOWN_LOCATION();
  }

  if (path === "/ip" || path.startsWith("/ip/")) {
    let addressText: string | null;
    if (path === "/ip") {
      addressText = request.clientAddress;
      if (addressText === null) throw UNKNOWN_LOCATION();
    } else {
      addressText = safeDecode(path.slice("/ip/".length));
      if (addressText === null) throw MALFORMED_IP();
    }
    const address = parseIp(addressText);
    if (!address) throw MALFORMED_IP();
    const key = lookupKey(address);
    if (key.version === 0) throw UNKNOWN_LOCATION();
    const zoneName = data.ip.zoneFor(key);
    const resolved = zoneName === null ? undefined : zones.resolve(zoneName);
    if (!resolved) throw UNKNOWN_LOCATION();
    const instant = instantOf(query, clock);
    const shown = path === "/ip" ? request.clientAddress : formatIp(address);
    return responses.timeObject(data.renderer.render(resolved, instant, shown, route.profile, route.format), route.format, head);
  }

  throw NOT_FOUND();
}

function instantOf(query: string, clock: Clock): Instant {
  const at = queryParam(query, "at");
  if (at === undefined) return clock();
  if (at === null) throw invalidAt(); // a broken percent-escape
  return parseAt(at);
}

/** Names under a prefix such as `America` or `america/argentina`, canonical casing. */
function namesUnder(zones: ZoneTable, prefix: string): string[] {
  const lower = `${prefix.toLowerCase()}/`;
  if (lower === "/") return [];
  return zones.names.filter((n) => n.toLowerCase().startsWith(lower));
}
