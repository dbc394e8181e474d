// The dialects' rows of the route table (routing/route-table.ts puts them first): timeapi.io under /api
// (caseless, beside the WorldTimeAPI profile, none of whose names they shadow), TimeZoneDB at
// /v2.1/ and /v2/, Google at /maps/api/timezone/. Each row names the dialect whose error
// shape it answers in. TimeZoneDB's and Google's answers are kept per URL while they hold
// (kept-answers.ts); timeapi.io's current times carry the microsecond, so are made each time.
// `tzdb`: `?tzdb=RELEASE` on every GET row that answers from tz rules (docs/time-machine.md
// says why not the POST rows nor the calendar-only ones).

import type { RouteRow } from "../contract.ts";
import { GOOGLE_JSON, GOOGLE_XML, timezone } from "./google/google-timezone.ts";
import { calculation, convertTimeZone, dayOfTheWeek, dayOfTheYear } from "./timeapi-io/conversion-routes.ts";
import { availableTimeZones, byCoordinate, byIp, byZone, currentTime, healthCheck, zoneInfo } from "./timeapi-io/legacy-routes.ts";
import { LEGACY, V1, timeapiError } from "./timeapi-io/timeapi-format.ts";
import { translate } from "./timeapi-io/translate-route.ts";
import { v1AvailableTimeZones, v1CurrentTime, v1Unix, v1ZoneInfo } from "./timeapi-io/v1-routes.ts";
import { convertTimeZone as tzdbConvert, getTimeZone, listTimeZone } from "./timezonedb/tzdb-routes.ts";
import { TIMEZONEDB } from "./timezonedb/tzdb-output.ts";
import { keptFirst } from "./kept-answers.ts";
import { LIVE, RELEASE, RELEASE_BY_LANGUAGE, type CachePolicy } from "../caching/cache-policy.ts";

/** A POST-only route answers GET with timeapi.io's 405. */
const postOnly = () => {
  throw timeapiError("Method Not Allowed", 405);
};

// `cache`: timeapi.io's answers are about now (LIVE) but its name lists and calendar days.
const timeapi = (pattern: string, label: string, cache: CachePolicy, handle: RouteRow["handle"], extra: Partial<RouteRow> = {}): RouteRow =>
  ({ pattern, on: "api", only: "wta", caseless: true, label, cache, limited: true, dialect: LEGACY, handle, ...extra });
const timeapiV1 = (pattern: string, cache: CachePolicy, handle: RouteRow["handle"], extra: Partial<RouteRow> = {}): RouteRow =>
  ({ pattern, on: "api", only: "wta", caseless: true, label: "timeapi_v1", cache, limited: true, dialect: V1, handle, ...extra });
/** The row answers from tz rules: `?tzdb=RELEASE` answers as that release would (RouteRow.tzdb). */
const TZDB: Partial<RouteRow> = { tzdb: true };

const TIMEAPI_ROWS: RouteRow[] = [
  timeapi("/time/current/zone", "timeapi_time", LIVE, currentTime(byZone), TZDB),
  timeapi("/time/current/coordinate", "timeapi_time", LIVE, currentTime(byCoordinate), TZDB),
  timeapi("/time/current/ip", "timeapi_time", LIVE, currentTime(byIp), TZDB),
  timeapi("/timezone/availabletimezones", "timeapi_timezone", RELEASE, availableTimeZones, TZDB),
  timeapi("/timezone/zone", "timeapi_timezone", LIVE, zoneInfo(byZone), TZDB),
  timeapi("/timezone/coordinate", "timeapi_timezone", LIVE, zoneInfo(byCoordinate), TZDB),
  timeapi("/timezone/ip", "timeapi_timezone", LIVE, zoneInfo(byIp), TZDB),
  timeapi("/conversion/converttimezone", "timeapi_conversion", LIVE, postOnly, { post: convertTimeZone }),
  timeapi("/conversion/translate", "timeapi_conversion", LIVE, postOnly, { post: translate }),
  timeapi("/conversion/dayoftheweek/{date}", "timeapi_conversion", RELEASE, dayOfTheWeek),
  timeapi("/conversion/dayoftheyear/{date}", "timeapi_conversion", RELEASE, dayOfTheYear),
  timeapi("/calculation/current/increment", "timeapi_calculation", LIVE, postOnly, { post: calculation(false, 1) }),
  timeapi("/calculation/current/decrement", "timeapi_calculation", LIVE, postOnly, { post: calculation(false, -1) }),
  timeapi("/calculation/custom/increment", "timeapi_calculation", LIVE, postOnly, { post: calculation(true, 1) }),
  timeapi("/calculation/custom/decrement", "timeapi_calculation", LIVE, postOnly, { post: calculation(true, -1) }),
  timeapi("/health/check", "timeapi_health", LIVE, healthCheck),
  timeapiV1("/v1/time/current/zone", LIVE, v1CurrentTime(byZone), TZDB),
  timeapiV1("/v1/time/current/coordinate", LIVE, v1CurrentTime(byCoordinate), TZDB),
  timeapiV1("/v1/time/current/ip", LIVE, v1CurrentTime(byIp), TZDB),
  timeapiV1("/v1/time/current/unix", LIVE, v1Unix),
  timeapiV1("/v1/timezone/zone", LIVE, v1ZoneInfo(byZone), TZDB),
  timeapiV1("/v1/timezone/coordinate", LIVE, v1ZoneInfo(byCoordinate), TZDB),
  timeapiV1("/v1/timezone/ip", LIVE, v1ZoneInfo(byIp), TZDB),
  timeapiV1("/v1/timezone/availabletimezones", RELEASE, v1AvailableTimeZones, TZDB),
];

const tzdb = (version: "v2" | "v2.1"): RouteRow[] => [
  { pattern: `/${version}/get-time-zone`, on: "raw", label: "timezonedb", cache: LIVE, limited: true, dialect: TIMEZONEDB, tzdb: true, handle: keptFirst(getTimeZone(version)) },
  { pattern: `/${version}/list-time-zone`, on: "raw", label: "timezonedb", cache: LIVE, limited: true, dialect: TIMEZONEDB, tzdb: true, handle: keptFirst(listTimeZone) },
  { pattern: `/${version}/convert-time-zone`, on: "raw", label: "timezonedb", cache: LIVE, limited: true, dialect: TIMEZONEDB, tzdb: true, handle: keptFirst(tzdbConvert) },
];

export const DIALECT_ROUTES: readonly RouteRow[] = [
  ...TIMEAPI_ROWS,
  ...tzdb("v2.1"),
  ...tzdb("v2"),
  { pattern: "/maps/api/timezone/json", on: "raw", label: "google", cache: RELEASE_BY_LANGUAGE, limited: true, dialect: GOOGLE_JSON, tzdb: true, handle: keptFirst(timezone("json")) },
  { pattern: "/maps/api/timezone/xml", on: "raw", label: "google", cache: RELEASE_BY_LANGUAGE, limited: true, dialect: GOOGLE_XML, tzdb: true, handle: keptFirst(timezone("xml")) },
];
