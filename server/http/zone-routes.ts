// The handlers of the routes about a zone's rules (their rows are in routes.ts):
//
//   /timezone/{name}/transitions?from=&to=   every clock change in a window (at most 1000)
//   /timezone/{name}/info?at=                canonical zone, links, countries, posix_tz, next change
//   /convert?time=&from=&to=&disambiguation= one instant as time objects in two zones
//
// All of them answer the same for the same query until the data changes (info: until the
// next clock change too), so they are cacheable (cacheable-answer.ts): each names its
// validated query by a normalised key, whose ETag revalidates without building a body.

import type { Instant } from "../core/clock.ts";
import { MAX_SECONDS, parseAt } from "./at-param.ts";
import { cacheableAnswer } from "./cacheable-answer.ts";
import { checkConvertYears, convertBody, convertInstant, parseDisambiguation } from "./convert-answer.ts";
import { badRequest, HttpError } from "./http-errors.ts";
import { queryParam } from "./request-target.ts";
import { resolveName, resolveNameParam } from "./api.ts";
import type { RouteRequest } from "./routes.ts";
import { transitionsAnswer, transitionsText } from "./transitions-answer.ts";
import { zoneInfo, zoneInfoJson, zoneInfoText } from "./zone-info-answer.ts";
import { deviceTz } from "./device-answer.ts";

const DAY = 86400;
const DEFAULT_WINDOW = 365 * DAY;
/** A window that starts now changes as soon as a change leaves it: cache it briefly. */
const NOW_MAX_AGE = 60;

/** An instant parameter in the `at` syntax; its errors name the parameter. */
export function instantParam(request: RouteRequest, name: string): Instant | undefined {
  const text = queryParam(request.query, name);
  if (text === undefined) return undefined;
  try {
    return parseAt(text ?? "\u0000"); // null: a broken percent-escape, refused as invalid
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw badRequest(error.code, error.message.replace(/^invalid at/, `invalid ${name}`).replace(/^at out of range/, `${name} out of range`));
  }
}

/** `/timezone/{name*}/transitions` */
export function transitions(request: RouteRequest): Response {
  const { zones, responses } = request.data;
  const name = resolveNameParam(zones, request.params[0]!);
  const from = instantParam(request, "from");
  const to = instantParam(request, "to");
  const start = from?.seconds ?? request.clock().seconds;
  const end = to?.seconds ?? Math.min(start + DEFAULT_WINDOW, MAX_SECONDS);
  if (end <= start) throw badRequest("bad_window", "invalid to: must be after from");
  // The answer is a function of these alone (the instants' microseconds included, as given).
  const key = `transitions|${request.profile}|${request.format}|${name.name}|${start}|${from?.micros ?? 0}|${end}|${to?.micros ?? 0}`;
  return cacheableAnswer(request, key, from === undefined ? NOW_MAX_AGE : DAY, () => {
    const answer = transitionsAnswer(zones, name, start, end, request.profile);
    return request.format === "json" ? JSON.stringify(answer) : transitionsText(answer);
  });
}

/** `/timezone/{name*}/info` */
export function info(request: RouteRequest): Response {
  const { zones } = request.data;
  const name = resolveNameParam(zones, request.params[0]!);
  const at = instantParam(request, "at");
  const now = at?.seconds ?? request.clock().seconds;
  // The answer is the same at every instant of one period of the zone (its state, and the
  // next change, which is at or after the period's end): the period names it.
  const period = zones.periodAt(name.zone, now);
  // ...and the device string, which may also depend on the day (deviceTz is cheap: a cached footer, mostly).
  const { answer: device, refreshAfter } = deviceTz(zones, name, now, request.profile);
  const key = `info|${request.profile}|${request.format}|${name.name}|${period.start}|${device.posix_tz}|${device.valid_until}|${device.refresh_after}`;
  // For now, the answer holds until the next clock change; for a fixed `at`, until the data changes.
  const maxAge = at !== undefined ? DAY : Math.max(0, Math.min(DAY, Math.floor(Math.min(period.end, refreshAfter) - now)));
  return cacheableAnswer(request, key, maxAge, () => request.format === "json"
    ? zoneInfoJson(zones, name, now, request.profile).body
    : zoneInfoText(zoneInfo(zones, name, now, request.profile).answer));
}

function requiredParam(request: RouteRequest, name: string): string {
  const value = queryParam(request.query, name);
  if (value === undefined || value === "") throw badRequest("missing_parameter", `missing ${name}`);
  if (value === null) throw badRequest("bad_parameter", `invalid ${name}: broken percent-encoding`);
  return value;
}

/** `/convert` */
export function convert(request: RouteRequest): Response {
  const { zones } = request.data;
  const time = requiredParam(request, "time");
  const from = resolveName(zones, requiredParam(request, "from"));
  const to = resolveName(zones, requiredParam(request, "to"));
  const mode = queryParam(request.query, "disambiguation");
  if (mode === null) throw badRequest("bad_disambiguation", "invalid disambiguation: broken percent-encoding");
  const instant = convertInstant(zones, from, time, parseDisambiguation(mode));
  // Both local times must be in years 0001-9999 before anything is answered (a 304 included).
  checkConvertYears(zones, from, to, instant);
  const key = `convert|${request.profile}|${request.format}|${from.name}|${to.name}|${instant.seconds}|${instant.micros}`;
  return cacheableAnswer(request, key, DAY, () => convertBody(zones, from, to, instant, request.profile, request.format));
}

/** Every path of the WorldTimeAPI profile, for its index. */
const API_PATHS = [
  "/api/timezone", "/api/timezone/{area}", "/api/timezone/{area}/{location}", "/api/{area}/{location}",
  "/api/timezone/{area}/{location}/transitions", "/api/timezone/{area}/{location}/info", "/api/convert",
  "/api/ip", "/api/ip/{address}", "/api/clock?zones={names}",
];

/** `/api`: what worldtimeapi.org served there (its schema) has become an index of the profile. */
export function apiIndex(request: RouteRequest): Response {
  const body = {
    service: "zonetime",
    profile: "worldtimeapi",
    tzdb_version: request.data.zones.tzdbVersion,
    paths: API_PATHS,
    openapi: "/openapi.json",
    docs: "/docs/",
  };
  return cacheableAnswer(request, `api-index|${request.format}`, 3600, () => request.format === "json" ? JSON.stringify(body)
    : `service: zonetime\nprofile: worldtimeapi\ntzdb_version: ${body.tzdb_version}\nopenapi: /openapi.json\ndocs: /docs/\n${API_PATHS.join("\n")}\n`);
}
