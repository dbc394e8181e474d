// timeapi.io's legacy GET routes under /api (rows in ../dialect-routes.ts), paths and query
// names in any letter case as its clients send them:
//
//   /api/Time/current/zone?timeZone=          current time in a zone
//   /api/Time/current/coordinate?latitude=&longitude=
//   /api/Time/current/ip?ipAddress=
//   /api/TimeZone/zone?timeZone=              the zone's offsets and DST period
//   /api/TimeZone/coordinate, /api/TimeZone/ip
//   /api/TimeZone/AvailableTimeZones          every name
//   /api/Health/Check
//
// JSON is sent chunked, in one chunk: SenseCAP's firmware skips a chunk-size line after
// TimeZone/ip's headers (see responses.ts dialect()). Bun sends a Time/current answer,
// about 230 bytes, with Content-Length instead (test/http/dialects/timeapi-chunked.test.ts).

import type { Instant } from "../../../core/clock.ts";
import { currentOrNextDstRun, observesDst, zoneStateAt } from "../../../time-object/zone-state.ts";
import type { ResolvedName } from "../../../tz/zone-table.ts";
import type { RouteRequest } from "../../contract.ts";
import { zoneByName, zoneOfIp, zonesAtPoint } from "../lookups.ts";
import { degreesOf } from "../../params/point.ts";
import { queryMap } from "../../params/query.ts";
import {
  currentTimeFields, dotnetLocal, durationObject, INVALID_TIMEZONE, JSON_TYPE, nodaInstant, offsetObject, timeapiError,
  weekdayOfLocal,
} from "./timeapi-format.ts";

/** What a timeapi.io query names: a zone, a point or an address, each read the same by every route family. */
export type Locate = (request: RouteRequest, query: Map<string, string | null>) => ResolvedName;

export const byZone: Locate = (request, query) => {
  const name = query.get("timezone");
  if (!name) throw INVALID_TIMEZONE();
  return zoneByName(request.data, name) ?? (() => { throw INVALID_TIMEZONE(); })();
};

export const byCoordinate: Locate = (request, query) => {
  const lat = degreesOf(query.get("latitude") ?? undefined, 90);
  const lng = degreesOf(query.get("longitude") ?? undefined, 180);
  if (lat === null || lng === null) throw timeapiError("Invalid coordinate");
  return zonesAtPoint(request.data, lat, lng)[0]!;
};

export const byIp: Locate = (request, query) => {
  const text = query.get("ipaddress");
  const zone = text ? zoneOfIp(request.data, text) : "malformed";
  if (zone === "malformed") throw timeapiError("Invalid IpAddress");
  if (zone === null) throw timeapiError("Could not find the location of the IpAddress", 404);
  return zone;
};

export function sendJson(request: RouteRequest, body: string, cacheControl?: string): Response {
  return request.data.responses.dialect(body, JSON_TYPE, 200, request.head, { chunked: true, cacheControl });
}

/** `{"year":...,"dayOfWeek":"Saturday","dstActive":false}`: Time/current/*. */
export function currentTimeBody(request: RouteRequest, zone: ResolvedName, instant: Instant): string {
  const state = zoneStateAt(request.data.zones, zone.zone, instant.seconds);
  const local = instant.seconds + state.utoff;
  return `{${currentTimeFields(local, instant.micros)},"timeZone":${JSON.stringify(zone.name)},` +
    `"dayOfWeek":"${weekdayOfLocal(local)}","dstActive":${state.isdst}}`;
}

/** TimeZone/*: the zone's offsets now and its DST period (in force, or the next within a year). */
export function zoneInfoBody(request: RouteRequest, zone: ResolvedName, instant: Instant): string {
  const { zones } = request.data;
  const state = zoneStateAt(zones, zone.zone, instant.seconds);
  const has = observesDst(zones, zone.zone, instant.seconds);
  let interval = "null";
  const run = has ? currentOrNextDstRun(zones, zone.zone, instant.seconds) : null;
  if (run !== null && Number.isFinite(run.from) && Number.isFinite(run.until)) {
    const dst = zoneStateAt(zones, zone.zone, run.from);
    interval = `{"dstName":${JSON.stringify(dst.abbr)},"dstOffsetToUtc":${offsetObject(dst.utoff)},` +
      `"dstOffsetToStandardTime":${offsetObject(dst.dstOffset)},"dstStart":"${nodaInstant(run.from)}",` +
      `"dstEnd":"${nodaInstant(run.until)}","dstDuration":${durationObject(run.until - run.from)}}`;
  }
  return `{"timeZone":${JSON.stringify(zone.name)},"currentLocalTime":"${dotnetLocal(instant.seconds + state.utoff, instant.micros)}",` +
    `"currentUtcOffset":${offsetObject(state.utoff)},"standardUtcOffset":${offsetObject(state.stdoff)},` +
    `"hasDayLightSaving":${has},"isDayLightSavingActive":${state.isdst},"dstInterval":${interval}}`;
}

/** The zone a request's query names, kept per URL (caching/memos.ts): the query is read once. */
export function locatedZone(request: RouteRequest, locate: Locate): ResolvedName {
  const { url } = request;
  const memo = request.data.memos.timeapiZones;
  const known = url === null ? undefined : memo.get(url);
  if (known !== undefined) return known;
  const zone = locate(request, queryMap(request.query, true));
  if (url !== null) memo.set(url, zone);
  return zone;
}

export const currentTime = (locate: Locate) => (request: RouteRequest): Response =>
  sendJson(request, currentTimeBody(request, locatedZone(request, locate), request.clock()));

export const zoneInfo = (locate: Locate) => (request: RouteRequest): Response =>
  sendJson(request, zoneInfoBody(request, locatedZone(request, locate), request.clock()));

const namesBodies = new WeakMap<readonly string[], string>();

/**
 * Every name as a JSON array in timeapi.io's order: ordinal, ignoring case (its 597 names
 * end `"UTC","W-SU","WET","Zulu"`, Universal before UTC). Built once per data load.
 */
export function availableNamesBody(names: readonly string[]): string {
  let body = namesBodies.get(names);
  if (body === undefined) {
    const key = (n: string) => n.toUpperCase();
    body = JSON.stringify([...names].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)));
    namesBodies.set(names, body);
  }
  return body;
}

/** TimeZone/AvailableTimeZones: every name, a flat array (aliases too). */
export function availableTimeZones(request: RouteRequest): Response {
  return sendJson(request, availableNamesBody(request.data.zones.names), request.cache.cacheControl(3600));
}

/** Health/Check: 200 with ASP.NET's health text. */
export function healthCheck(request: RouteRequest): Response {
  return request.data.responses.dialect("Healthy", "text/plain; charset=utf-8", 200, request.head);
}
