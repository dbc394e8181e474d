// timeapi.io's v1 routes (rows in ../dialect-routes.ts), snake_case, Python isoformat:
//
//   /api/v1/time/current/zone?timezone=|timeZone=, /coordinate?latitude=&longitude=, /ip?ipAddress=
//   /api/v1/time/current/unix                 {"unix_timestamp":N}, compact, one key
//   /api/v1/timezone/zone?timeZone=, /coordinate, /ip, /availabletimezones
//
// A zone without DST leaves out the dst_* keys (a Rust client flattens them as an Option).

import { formatDateTime, formatOffset, pad6 } from "../../../core/time-format.ts";
import { currentOrNextDstRun, zoneStateAt } from "../../../time-object/zone-state.ts";
import type { RouteRequest } from "../../contract.ts";
import { availableNamesBody, locatedZone, type Locate } from "./legacy-routes.ts";
import { isoWithOffset, JSON_TYPE, weekdayOfLocal } from "./timeapi-format.ts";

function send(request: RouteRequest, body: string, cacheControl?: string): Response {
  return request.data.responses.dialect(body, JSON_TYPE, 200, request.head, { cacheControl });
}

const utcIso = (seconds: number) => `${formatDateTime(seconds)}.000000+00:00`;

export const v1CurrentTime = (locate: Locate) => (request: RouteRequest): Response => {
  const zone = locatedZone(request, locate);
  const instant = request.clock();
  const state = zoneStateAt(request.data.zones, zone.zone, instant.seconds);
  const local = instant.seconds + state.utoff;
  const dateTime = isoWithOffset(instant, state.utoff);
  return send(request, `{"date_time":"${dateTime}","date":"${dateTime.slice(0, 10)}","time":"${dateTime.slice(11, 26)}",` +
    `"day_of_week":"${weekdayOfLocal(local)}","dst_active":${state.isdst},"timezone":${JSON.stringify(zone.name)},` +
    `"utc_offset_seconds":${state.utoff}}`);
};

export function v1Unix(request: RouteRequest): Response {
  return send(request, `{"unix_timestamp":${request.clock().seconds}}`);
}

export const v1ZoneInfo = (locate: Locate) => (request: RouteRequest): Response => {
  const { zones } = request.data;
  const zone = locatedZone(request, locate);
  const instant = request.clock();
  const state = zoneStateAt(zones, zone.zone, instant.seconds);
  const run = currentOrNextDstRun(zones, zone.zone, instant.seconds);
  let dst = `"has_dst":false,`;
  if (run !== null && Number.isFinite(run.from) && Number.isFinite(run.until)) {
    const during = zoneStateAt(zones, zone.zone, run.from);
    dst = `"dst_utc_offset_seconds":${during.utoff},"has_dst":true,"dst_offset_seconds":${during.dstOffset},"dst_active":${state.isdst},` +
      `"dst_from":"${utcIso(run.from)}","dst_until":"${utcIso(run.until)}",`;
  } else dst += `"dst_active":${state.isdst},`;
  const local = instant.seconds + state.utoff;
  return send(request, `{"timezone":${JSON.stringify(zone.name)},"current_utc_offset_seconds":${state.utoff},` +
    `"standard_utc_offset_seconds":${state.stdoff},${dst}"local_time":"${isoWithOffset(instant, state.utoff)}",` +
    `"day_of_week":"${weekdayOfLocal(local)}","utc_time":"${formatDateTime(instant.seconds)}.${pad6(instant.micros)}${formatOffset(0)}",` +
    `"unix_timestamp":${instant.seconds}}`);
};

export function v1AvailableTimeZones(request: RouteRequest): Response {
  return send(request, availableNamesBody(request.data.zones.names), request.cache.cacheControl(3600));
}
