// The handlers of the routes about a zone's rules (their rows are in routes.ts):
//
//   /timezone/{name}/transitions?from=&to=   every clock change in a window (at most 1000)
//   /timezone/{name}/info?at=                canonical zone, links, countries, posix_tz, next change
//   /convert?time=&from=&to=&disambiguation= one instant as time objects in two zones
//
// All of them answer the same for the same query until the data changes (info: until the
// next clock change too), so they are cacheable, with an ETag of the data version and body.

import type { Instant } from "../core/clock.ts";
import { MAX_SECONDS, parseAt } from "./at-param.ts";
import { convertBody, convertInstant, parseDisambiguation } from "./convert-answer.ts";
import { badRequest, HttpError } from "./http-errors.ts";
import { queryParam } from "./request-target.ts";
import { resolveName, resolveNameParam } from "./api.ts";
import type { RouteRequest } from "./routes.ts";
import { transitionsAnswer, transitionsText } from "./transitions-answer.ts";
import { zoneInfo, zoneInfoJson, zoneInfoText } from "./zone-info-answer.ts";
import { langParam } from "./lang-param.ts";
import { localizedNames } from "../names/localized-names.ts";

const DAY = 86400;
const DEFAULT_WINDOW = 365 * DAY;
/** A window that starts now changes as soon as a change leaves it: cache it briefly. */
const NOW_MAX_AGE = 60;

/** An instant parameter in the `at` syntax; its errors name the parameter. */
function instantParam(request: RouteRequest, name: string): Instant | undefined {
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
  const answer = transitionsAnswer(zones, name, start, end, request.profile);
  const body = request.format === "json" ? JSON.stringify(answer) : transitionsText(answer);
  return responses.cacheable(body, request.format, request.head, request.ifNoneMatch(), from === undefined ? NOW_MAX_AGE : DAY);
}

/** `/timezone/{name*}/info` */
export function info(request: RouteRequest): Response {
  const { zones, responses } = request.data;
  const name = resolveNameParam(zones, request.params[0]!);
  const at = instantParam(request, "at");
  const now = at?.seconds ?? request.clock().seconds;
  let body: string;
  let validUntil: number;
  if (request.format === "json") {
    ({ body, validUntil } = zoneInfoJson(zones, name, now, request.profile));
  } else {
    const info = zoneInfo(zones, name, now, request.profile);
    body = zoneInfoText(info.answer);
    validUntil = info.validUntil;
  }
  const locale = langParam(request);
  if (locale !== null) {
    const countries = zones.facts(name.name)?.countries.map((c) => c.code) ?? [];
    const names = localizedNames(request.data.namer, name.name, now, locale, countries)!;
    if (request.format === "json") body = `${body.slice(0, -1)},"names":${JSON.stringify(names)}}`;
    else {
      const { country_names, ...flat } = names;
      for (const [key, value] of Object.entries(flat)) body += `names.${key}: ${value ?? ""}\n`;
      for (const c of country_names) body += `names.country_names.${c.code}: ${c.name}\n`;
    }
  }
  // For now, the answer holds until the next clock change; for a fixed `at`, until the data changes.
  const maxAge = at !== undefined ? DAY : Math.max(0, Math.min(DAY, Math.floor(validUntil - now)));
  return responses.cacheable(body, request.format, request.head, request.ifNoneMatch(), maxAge);
}

function requiredParam(request: RouteRequest, name: string): string {
  const value = queryParam(request.query, name);
  if (value === undefined || value === "") throw badRequest("missing_parameter", `missing ${name}`);
  if (value === null) throw badRequest("bad_parameter", `invalid ${name}: broken percent-encoding`);
  return value;
}

/** `/convert` */
export function convert(request: RouteRequest): Response {
  const { zones, responses } = request.data;
  const time = requiredParam(request, "time");
  const from = resolveName(zones, requiredParam(request, "from"));
  const to = resolveName(zones, requiredParam(request, "to"));
  const mode = queryParam(request.query, "disambiguation");
  if (mode === null) throw badRequest("bad_disambiguation", "invalid disambiguation: broken percent-encoding");
  const instant = convertInstant(zones, from, time, parseDisambiguation(mode));
  const body = convertBody(zones, from, to, instant, request.profile, request.format);
  return responses.cacheable(body, request.format, request.head, request.ifNoneMatch(), DAY);
}

/** Every path of the WorldTimeAPI profile, for its index. */
const API_PATHS = [
  "/api/timezone", "/api/timezone/{area}", "/api/timezone/{area}/{location}", "/api/{area}/{location}",
  "/api/timezone/{area}/{location}/transitions", "/api/timezone/{area}/{location}/info", "/api/convert",
  "/api/ip", "/api/ip/{address}",
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
  const text = request.format === "json" ? JSON.stringify(body)
    : `service: zonetime\nprofile: worldtimeapi\ntzdb_version: ${body.tzdb_version}\nopenapi: /openapi.json\ndocs: /docs/\n${API_PATHS.join("\n")}\n`;
  return request.data.responses.cacheable(text, request.format, request.head, request.ifNoneMatch(), 3600);
}
