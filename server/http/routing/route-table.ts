// The service's routes as one table: one row per route, its path pattern, its handler, its
// metrics label and who may keep its answers (`cache`: caching/cache-policy.ts, listed in
// docs/shared-caches.md). The metrics route labels are this table's labels (in row order), then
// "site" for the website and "other" for an unknown /api path or a refused raw path
// (bun/raw-path-guard.ts). Adding an endpoint is adding a row; rows are tried in order, so
// a more specific pattern goes first (`/timezone/{name*}/info` before `/timezone/{name*}`).
// The matcher is routing/match-route.ts.

import type { RouteRow } from "../contract.ts";
import { callerIp, coordinates, ipAddress, timezoneList, timezoneName, worldTimeApiAlias } from "../routes/time-objects.ts";
import { apiIndex, convert, info, transitions } from "../routes/zone-routes.ts";
import { places } from "../routes/places-route.ts";
import { remembered } from "../caching/cacheable-answer.ts";
import { device, deviceCsv, deviceIndex } from "../routes/device-routes.ts";
import { worldClock } from "../routes/world-clock.ts";
import { sync } from "../routes/sync-route.ts";
import { DIALECT_ROUTES } from "../dialects/dialect-routes.ts";
import { health, healthLive, healthReady, metrics, openapiDocument } from "../routes/service-routes.ts";
import { LIVE, LIVE_OR_RELEASE, RELEASE, UNTIL } from "../caching/cache-policy.ts";
import { nameChanges, nameFeedAtom, nameFeedJson, releaseChangesRoute, tzdbFeedAtom, tzdbFeedJson, tzdbIndex } from "../time-machine/tzdb-routes.ts";

export const ROUTE_TABLE: readonly RouteRow[] = [
  // The dialects first: their paths are no name of WorldTimeAPI's (`/api/TimeZone/zone`
  // was an unknown location there), and every tz name keeps its meaning below.
  ...DIALECT_ROUTES,
  // `tzdb`: `?tzdb=RELEASE` answers as that release would (time-machine/with-tzdb.ts).
  { pattern: "/timezone", on: "api", label: "timezone_list", cache: RELEASE, limited: true, tzdb: true, handle: remembered(timezoneList) },
  { pattern: "/timezone/{name*}/transitions", on: "api", label: "transitions", cache: UNTIL, limited: true, tzdb: true, handle: remembered(transitions) },
  { pattern: "/timezone/{name*}/info", on: "api", label: "info", cache: UNTIL, limited: true, tzdb: true, handle: remembered(info) },
  { pattern: "/timezone/{name*}/device", on: "api", label: "device", cache: UNTIL, limited: true, tzdb: true, handle: remembered(device) },
  { pattern: "/timezone/{name*}/changes", on: "api", label: "tzdb_changes", cache: RELEASE, limited: true, text: false, later: true, handle: remembered(nameChanges) },
  { pattern: "/timezone/{name*}/feed.atom", on: "api", label: "tzdb_feed", cache: RELEASE, limited: true, text: false, later: true, handle: remembered(nameFeedAtom) },
  { pattern: "/timezone/{name*}/feed.json", on: "api", label: "tzdb_feed", cache: RELEASE, limited: true, text: false, later: true, handle: remembered(nameFeedJson) },
  { pattern: "/timezone/{name*}", on: "api", label: "timezone", cache: LIVE_OR_RELEASE, limited: true, tzdb: true, handle: timezoneName },
  { pattern: "/tzdb", on: "api", label: "tzdb", cache: RELEASE, limited: true, text: false, handle: remembered(tzdbIndex) },
  { pattern: "/tzdb/feed.atom", on: "api", label: "tzdb_feed", cache: RELEASE, limited: true, text: false, later: true, handle: remembered(tzdbFeedAtom) },
  { pattern: "/tzdb/feed.json", on: "api", label: "tzdb_feed", cache: RELEASE, limited: true, text: false, later: true, handle: remembered(tzdbFeedJson) },
  { pattern: "/tzdb/{release}/changes", on: "api", label: "tzdb_changes", cache: RELEASE, limited: true, text: false, later: true, handle: remembered(releaseChangesRoute) },
  { pattern: "/device", on: "api", label: "device_list", cache: UNTIL, limited: true, later: true, tzdb: true, handle: remembered(deviceIndex) },
  { pattern: "/device.csv", on: "api", label: "device_list", cache: UNTIL, limited: true, text: false, later: true, tzdb: true, handle: remembered(deviceCsv) },
  { pattern: "/convert", on: "api", label: "convert", cache: RELEASE, limited: true, tzdb: true, handle: remembered(convert) },
  { pattern: "/ip", on: "api", label: "ip", cache: LIVE, limited: true, tzdb: true, handle: callerIp },
  { pattern: "/ip/{address*}", on: "api", label: "ip", cache: LIVE, limited: true, tzdb: true, handle: ipAddress },
  { pattern: "/coordinates/{point}", on: "api", label: "coordinates", cache: LIVE, limited: true, tzdb: true, handle: coordinates },
  { pattern: "/places", on: "raw", label: "places", cache: RELEASE, limited: true, handle: remembered(places) },
  { pattern: "/clock", on: "api", label: "clock", cache: LIVE, limited: true, tzdb: true, handle: worldClock },
  // Spec profile, JSON only: the smallest answer, and a clock offset has no WorldTimeAPI form.
  { pattern: "/sync", on: "raw", label: "sync", cache: LIVE, limited: true, handle: sync },
  { pattern: "/health", on: "raw", label: "health", cache: LIVE, limited: false, handle: health },
  { pattern: "/health/live", on: "raw", label: "health", cache: LIVE, limited: false, handle: healthLive },
  { pattern: "/health/ready", on: "raw", label: "health", cache: LIVE, limited: false, handle: healthReady },
  { pattern: "/metrics", on: "raw", label: "metrics", cache: LIVE, limited: false, handle: metrics },
  { pattern: "/openapi.json", on: "raw", label: "site", cache: RELEASE, limited: true, handle: openapiDocument },
  // Last: under /api, "/" is the index and any other name is WorldTimeAPI's short form of /api/timezone/{name}.
  { pattern: "/", on: "api", label: "api_index", cache: RELEASE, limited: true, only: "wta", handle: apiIndex },
  { pattern: "/{name*}", on: "api", label: "timezone", cache: LIVE, limited: true, only: "wta", tzdb: true, handle: worldTimeApiAlias },
];

/** The WorldTimeAPI profile's prefix. */
export const API_PREFIX = "/api";
export const SITE_LABEL = "site";
export const OTHER_LABEL = "other";

/** Every metrics route label: the table's, in row order, then the website's and an unknown /api path's. */
export const ROUTE_LABELS: readonly string[] = [...new Set([...ROUTE_TABLE.map((r) => r.label), SITE_LABEL, OTHER_LABEL])];

