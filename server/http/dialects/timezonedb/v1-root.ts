// TimeZoneDB's first API, at the root of its host, before /v2/ existed:
//
//   GET /?key=K&zone=America/Chicago&format=json[&time=]
//   GET /?key=K&lat=40.7&lng=-74&format=json[&time=]
//
// Clients still send exactly this (HalleyAssist's Ruby gem, AnatoliyGatt's timezonedb-node,
// a PHP one). Its answer, as their fixtures and README show it: status, message, countryCode,
// zoneName, abbreviation, gmtOffset (a string), dst ("0"/"1"), timestamp (the local wall time
// as unix seconds); a refusal is status "FAIL" with the message (timezonedb-node treats any
// non-empty message as the error). XML (the default) and JSON, as the v2 routes write them.
//
// The root is also the website's home page: a request is the API's when its query names an
// API parameter (`key`, `zone`, `lat`, `lng`, or `format=json|xml`), so an API client never
// gets HTML, and a browser's plain `/` still gets the site. handler.ts asks `rootApiMatch`.

import { HttpError } from "../../pipeline/http-errors.ts";
import type { Dialect, RouteMatch, RouteRequest, RouteRow } from "../../contract.ts";
import { ROUTE_LABELS } from "../../routing/route-table.ts";
import { keptFirst } from "../kept-answers.ts";
import { LIVE } from "../../caching/cache-policy.ts";
import { zonesAtPoint } from "../lookups.ts";
import { degreesOf } from "../../params/point.ts";
import { queryMap } from "../../params/query.ts";
import { outputOptions, render, rendered, type OutputOptions, type Row } from "./tzdb-output.ts";
import { zoneRow, instantOfTime, zoneOrAbbreviation } from "./tzdb-routes.ts";

/** A v1 refusal: status FAIL, HTTP 200 (405 and 429 keep theirs). */
const fail = (message: string) => new HttpError("timezonedb", 200, message);

/** The v1 fields of a get-time-zone row, in v1's order, gmtOffset as v1 wrote it (a string). */
const V1_FIELDS = ["status", "message", "countryCode", "zoneName", "abbreviation", "gmtOffset", "dst", "timestamp"];

function v1Answer(request: RouteRequest): Response {
  const { data } = request;
  const query = queryMap(request.query, false);
  const options = outputOptions(query);
  const { at, holds } = instantOfTime(request, query, fail);
  const zoneText = query.get("zone");
  let zone;
  if (zoneText) {
    zone = zoneOrAbbreviation(data, zoneText, fail);
  } else if (query.has("lat") || query.has("lng")) {
    const lat = degreesOf(query.get("lat") ?? undefined, 90);
    const lng = degreesOf(query.get("lng") ?? undefined, 180);
    if (lat === null || lng === null) throw fail("Invalid latitude or longitude.");
    zone = zonesAtPoint(data, lat, lng)[0]!;
  } else {
    throw fail("Missing zone or position: use zone=, or lat= and lng=.");
  }
  const full = new Map(zoneRow(data, zone, at, "v2.1"));
  const row: Row = V1_FIELDS.map((k) => [k, k === "gmtOffset" ? String(full.get(k)) : full.get(k) ?? ""]);
  return render(request, holds, options, row);
}

export const TIMEZONEDB_V1: Dialect = {
  name: "TimeZoneDB v1",
  error(context, error, extra) {
    let options: Pick<OutputOptions, "format" | "callback">;
    try {
      options = outputOptions(queryMap(context.query, false));
    } catch {
      options = { format: "json", callback: null };
    }
    const status = error.status === 429 || error.status === 405 ? error.status : 200;
    const message = error.status === 429 ? "Rate limit exceeded. Please wait and try again." : error.message;
    const { body, type } = rendered(options, [["status", "FAIL"], ["message", message]]);
    return context.data.responses.dialect(body, type, status, context.head, { extra });
  },
};

/** Not in the route table (the root's path belongs to the website): chosen by `rootApiMatch`. */
export const TIMEZONEDB_V1_ROW: RouteRow = { pattern: "/", on: "raw", label: "timezonedb", cache: LIVE, limited: true, dialect: TIMEZONEDB_V1, handle: keptFirst(v1Answer) };

const API_KEYS = ["key", "zone", "lat", "lng"];

/** Whether a query at the root names an API parameter (any letter case of its value aside). */
export function isApiQuery(query: string): boolean {
  if (query === "") return false;
  const map = queryMap(query, true);
  if (API_KEYS.some((k) => map.has(k))) return true;
  const format = map.get("format")?.toLowerCase();
  return format === "json" || format === "xml";
}

const V1_MATCH: RouteMatch = Object.freeze({
  route: TIMEZONEDB_V1_ROW, params: Object.freeze([]) as readonly string[], profile: "spec", format: "json",
  label: ROUTE_LABELS.indexOf("timezonedb"), api: true, family: "",
});

/** The root's match for a TimeZoneDB v1 request (`/` with an API query), else null: the website's. */
export function rootApiMatch(path: string, query: string): RouteMatch | null {
  return path === "/" && isApiQuery(query) ? V1_MATCH : null;
}
