// The handlers of the routes about a zone's rules (their rows are in routes.ts):
//
//   /timezone/{name}/transitions?from=&to=   every clock change in a window (at most 1000)
//   /timezone/{name}/info?at=                canonical zone, links, countries, posix_tz, next change
//   /convert?time=&from=&to=&disambiguation= one instant as time objects in two zones
//
// All of them answer the same for the same query until the data changes (info: until the
// next clock change too), so they are cacheable (cacheable-answer.ts): each names its
// validated query by a normalised key, whose ETag revalidates without building a body.

import type { Instant } from "../../core/clock.ts";
import { instantParam, MAX_SECONDS } from "../params/at-param.ts";
import { ALWAYS, cacheableAnswer, type Holds } from "../caching/cacheable-answer.ts";
import { checkConvertYears, convertBody, convertInstant, parseDisambiguation } from "./convert-answer.ts";
import { badRequest } from "../pipeline/http-errors.ts";
import { queryParam } from "../params/query.ts";
import { resolveName, resolveNameParam } from "../params/zone-name.ts";
import type { RouteRequest } from "../contract.ts";
import { transitionsAnswer, transitionsText } from "./transitions-answer.ts";
import { zoneInfo, zoneInfoJson, zoneInfoText } from "./zone-info-answer.ts";
import { langParam } from "../params/lang-param.ts";
import { localizedNames } from "../../names/localized-names.ts";
import { deviceTz } from "./device-answer.ts";

const DAY = 86400;
const DEFAULT_WINDOW = 365 * DAY;
/** A window that starts now changes as soon as a change leaves it: cache it briefly. */
const NOW_MAX_AGE = 60;

/**
 * The first whole second at or after `instant`. Clock changes fall on whole seconds, so the
 * changes in [from, to) are those at whole seconds in [ceil(from), ceil(to)): a fraction of
 * `from` excludes the change at its second, one of `to` includes it.
 */
const ceilSeconds = (instant: Instant) => (instant.micros > 0 ? instant.seconds + 1 : instant.seconds);
const isAfter = (a: Instant, b: Instant) => a.seconds > b.seconds || (a.seconds === b.seconds && a.micros > b.micros);

/** `/timezone/{name*}/transitions` */
export function transitions(request: RouteRequest): Response {
  const { zones } = request.data;
  const name = resolveNameParam(zones, request.params[0]!);
  const from = instantParam(request, "from");
  const to = instantParam(request, "to");
  const first: Instant = from ?? { seconds: request.clock().seconds, micros: 0 };
  const start = ceilSeconds(first);
  // The window echoed is whole seconds within years 0001-9999: a fraction in the last second
  // of 9999 has no whole second after it to start from, and a `to` there ends at that second.
  if (start > MAX_SECONDS) throw badRequest("bad_from", "from out of range: the window starts at the next whole second, which is past 9999-12-31T23:59:59Z");
  if (to !== undefined && !isAfter(to, first)) throw badRequest("bad_window", `invalid to: must be after ${from === undefined ? "now" : "from"}`);
  const end = to !== undefined ? Math.min(ceilSeconds(to), MAX_SECONDS) : Math.min(start + DEFAULT_WINDOW, MAX_SECONDS);
  // Without `to`, the default window must hold a second (with `to`, an empty window is an answer).
  if (to === undefined && end <= start) throw badRequest("bad_from", "from out of range: it leaves no whole second before 9999-12-31T23:59:59Z for the window");
  // The answer is a function of these alone (the whole-second window the microseconds select).
  const key = `transitions|${request.profile}|${request.format}|${name.name}|${start}|${end}`;
  // A window from now is the same URL's answer for this second only.
  const holds: Holds = from === undefined ? { always: false, second: first.seconds } : ALWAYS;
  return cacheableAnswer(request, key, from === undefined ? NOW_MAX_AGE : DAY, () => {
    const answer = transitionsAnswer(zones, name, start, end, request.profile);
    return request.format === "json" ? JSON.stringify(answer) : transitionsText(answer);
  }, undefined, holds);
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
  const locale = langParam(request);
  // Localized names may change inside a period (a metazone's dates, ICU's 184-day DST
  // window): with lang the key names the day as well.
  const key = `info|${request.profile}|${request.format}|${name.name}|${period.start}|${device.posix_tz}|${device.valid_until}|${device.refresh_after}` +
    (locale === null ? "" : `|${locale.tag}|${Math.floor(now / DAY)}`);
  // For now, the answer holds until the next clock change; for a fixed `at`, until the data changes.
  const maxAge = at !== undefined ? DAY : Math.max(0, Math.min(DAY, Math.floor(Math.min(period.end, refreshAfter) - now)));
  return cacheableAnswer(request, key, maxAge, () => {
    let body = request.format === "json" ? zoneInfoJson(zones, name, now, request.profile).body : zoneInfoText(zoneInfo(zones, name, now, request.profile).answer);
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
    return body;
    // The state now (and the device string) is the same URL's answer for this second only.
  }, undefined, at !== undefined ? ALWAYS : { always: false, second: now });
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
  return cacheableAnswer(request, key, DAY, () => convertBody(zones, from, to, instant, request.profile, request.format), undefined, ALWAYS);
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
