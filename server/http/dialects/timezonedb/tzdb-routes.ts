// TimeZoneDB's endpoints at its own paths, /v2.1/ and /v2/ (rows in ../dialect-routes.ts):
//
//   get-time-zone?by=zone&zone=       a name, or an abbreviation (CDT, PST)
//   get-time-zone?by=position&lat=&lng=, by=ip&ip=, by=city&country=&city=[&region=&page=] (places/)
//   list-time-zone?country=&zone=     zone.tab's names, `*` as a wildcard (America/*)
//   convert-time-zone?from=&to=&time=
//   ...each with time= (unix seconds, UTC), format=xml|json, fields=, callback=; key ignored.
//
// /v2/ names the period bounds dstStart/dstEnd, /v2.1/ zoneStart/zoneEnd with regionName and
// cityName (as the captures of each show). `timestamp` is the local wall time as unix seconds.

import { countryCode } from "../../params/country.ts";
import { ALWAYS, type Holds } from "../../caching/cacheable-answer.ts";
import { formatDateTime, FIRST_RFC3339_SECOND, LAST_RFC3339_SECOND } from "../../../core/time-format.ts";
import { zoneStateAt } from "../../../time-object/zone-state.ts";
import { instantOfLocal } from "../../../tz/local-time.ts";
import type { ResolvedName } from "../../../tz/zone-table.ts";
import type { ApiData } from "../../pipeline/api-data.ts";
import type { RouteRequest } from "../../contract.ts";
import { zoneOfAbbreviation } from "../abbreviation-zones.ts";
import { zoneByName, zoneOfIp, zonesAtPoint } from "../lookups.ts";
import { degreesOf } from "../../params/point.ts";
import { queryMap } from "../../params/query.ts";
import { failed, narrow, outputOptions, render, type Row, type Value } from "./tzdb-output.ts";

export type ApiVersion = "v2" | "v2.1";

/** by=city answers a page of this many places (UNVERIFIED: abrihter's docstring says 10, jdforsythe's 25). */
const CITY_PAGE = 10;

const UNIX = /^-?\d{1,12}$/;

/** The instant asked about (`time=`, else now), and how long the URL names the same answer: for good, or for the current second. */
export function instantOfTime(request: RouteRequest, query: Map<string, string | null>, refuse = failed): { at: number; holds: Holds } {
  const time = query.get("time");
  if (time === undefined || time === "") {
    const now = request.clock().seconds;
    return { at: now, holds: { always: false, second: now } };
  }
  if (time === null || !UNIX.test(time)) throw refuse("Invalid time.");
  const seconds = Number(time);
  // Local times are printed: keep a day away from the years 0001-9999 edges.
  if (seconds < FIRST_RFC3339_SECOND + 86400 || seconds > LAST_RFC3339_SECOND - 86400) throw refuse("Invalid time.");
  return { at: seconds, holds: ALWAYS };
}

/** A name, else an abbreviation at that instant. */
export function zoneOrAbbreviation(data: ApiData, text: string | null | undefined, refuse = failed): ResolvedName {
  if (!text) throw refuse("Invalid zone.");
  const zone = zoneByName(data, text) ?? zoneOfAbbreviation(data, text);
  if (zone === null) throw refuse("Record not found.");
  return zone;
}

function country(data: ApiData, zone: ResolvedName): { code: string; name: string } {
  const facts = data.zones.facts(zone.name) ?? data.zones.facts(data.zones.zoneName(zone.zone));
  return facts?.countries[0] ?? { code: "", name: "" };
}

const finite = (t: number): number | null => (Number.isFinite(t) ? t : null);

/** The get-time-zone fields of a zone at an instant, in TimeZoneDB's order. */
export function zoneRow(data: ApiData, zone: ResolvedName, at: number, version: ApiVersion, place = { city: "", region: "" }): Row {
  const state = zoneStateAt(data.zones, zone.zone, at);
  const { code, name } = country(data, zone);
  const local = at + state.utoff;
  const [startKey, endKey] = version === "v2" ? ["dstStart", "dstEnd"] : ["zoneStart", "zoneEnd"];
  const row: Row = [["status", "OK"], ["message", ""], ["countryCode", code], ["countryName", name]];
  if (version === "v2.1") row.push(["regionName", place.region], ["cityName", place.city]);
  row.push(
    ["zoneName", zone.name], ["abbreviation", state.abbr], ["gmtOffset", state.utoff], ["dst", state.isdst ? "1" : "0"],
    [startKey, finite(state.periodStart)], [endKey, state.periodEnd === Infinity ? null : state.periodEnd - 1],
    ["nextAbbreviation", state.nextAbbr], ["timestamp", local], ["formatted", formatDateTime(local).replace("T", " ")],
  );
  return row;
}

/**
 * by=city: places named `city` (a trailing `*` is the prefix search places already does) in
 * `country`, `region` (a first-level region's name) narrowing them when it matches; a page
 * of `zones`, each a get-time-zone row with its city and region, as the npm client reads it.
 */
function byCity(request: RouteRequest, query: Map<string, string | null>, at: number, version: ApiVersion): { row: Row; list: Row[] } {
  const { data } = request;
  const code = countryCode(query.get("country") ?? "");
  const city = (query.get("city") ?? "").replace(/\*+$/, "").trim();
  if (code === null || city === "" || city.length > 100) throw failed("Invalid country or city.");
  const pageText = query.get("page") ?? "1";
  const page = /^\d{1,4}$/.test(pageText) ? Number(pageText) : 0;
  if (page < 1) throw failed("Invalid page.");
  let places = data.places.searchPlaces(city, { country: code, limit: 100 });
  const region = query.get("region")?.toLowerCase();
  if (region) {
    const inRegion = places.filter((p) => p.admin1?.toLowerCase() === region);
    if (inRegion.length > 0) places = inRegion;
  }
  if (places.length === 0) throw failed("Record not found.");
  const pages = Math.ceil(places.length / CITY_PAGE);
  if (page > pages) throw failed("Record not found.");
  const list = places.slice((page - 1) * CITY_PAGE, page * CITY_PAGE).map((place) =>
    zoneRow(data, data.zones.resolve(place.timezone)!, at, version, { city: place.name, region: place.admin1 ?? "" }).slice(2));
  return { row: [["status", "OK"], ["message", ""], ["totalPage", pages], ["currentPage", page]], list };
}

export const getTimeZone = (version: ApiVersion) => (request: RouteRequest): Response => {
  const { data } = request;
  const query = queryMap(request.query, false);
  const options = outputOptions(query);
  const { at, holds } = instantOfTime(request, query);
  const by = query.get("by");
  let zone: ResolvedName;
  if (by === "zone") {
    zone = zoneOrAbbreviation(data, query.get("zone"));
  } else if (by === "position") {
    const lat = degreesOf(query.get("lat") ?? undefined, 90);
    const lng = degreesOf(query.get("lng") ?? undefined, 180);
    if (lat === null || lng === null) throw failed("Invalid latitude or longitude.");
    zone = zonesAtPoint(data, lat, lng)[0]!;
  } else if (by === "ip") {
    const found = zoneOfIp(data, query.get("ip") ?? "");
    if (found === "malformed") throw failed("Invalid IP address.");
    if (found === null) throw failed("Record not found.");
    zone = found;
  } else if (by === "city") {
    const { row, list } = byCity(request, query, at, version);
    return render(request, holds, options, row, list.map((r) => narrow(r, options.fields)));
  } else {
    throw failed("Invalid by value. Use zone, position, city or ip.");
  }
  return render(request, holds, options, narrow(zoneRow(data, zone, at, version), options.fields));
};

let listCache: { data: ApiData; rows: { code: string; name: string; zone: ResolvedName }[] } | null = null;

/**
 * zone.tab's rows from the tables' facts: each Zone with a country, and each Link whose
 * country differs from its Zone's (Europe/Copenhagen, Asia/Kuwait: zone.tab rows merged
 * into another country's zone), never the spelling aliases (Asia/Calcutta, US/Eastern).
 */
export function zoneTabRows(data: ApiData): { code: string; name: string; zone: ResolvedName }[] {
  if (listCache?.data === data) return listCache.rows;
  const rows: { code: string; name: string; zone: ResolvedName }[] = [];
  for (const name of data.zones.names) {
    const zone = data.zones.resolve(name)!;
    const facts = data.zones.facts(name);
    if (facts === null) continue;
    const first = facts.countries[0]!;
    if (zone.isLink && data.zones.facts(data.zones.zoneName(zone.zone))?.countries[0]?.code === first.code) continue;
    rows.push({ code: first.code, name: first.name, zone });
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.zone.name < b.zone.name ? -1 : a.zone.name > b.zone.name ? 1 : 0));
  listCache = { data, rows };
  return rows;
}

const LIST_DEFAULT = new Set(["countryCode", "countryName", "zoneName", "gmtOffset", "timestamp"]);

/** `America/*`: a wildcard pattern as a test, any letter case. */
function wildcard(pattern: string): (name: string) => boolean {
  const lower = pattern.toLowerCase();
  const parts = lower.split("*");
  return (name) => {
    const n = name.toLowerCase();
    if (parts.length === 1) return n === lower;
    if (!n.startsWith(parts[0]!) || !n.endsWith(parts[parts.length - 1]!)) return false;
    let at = parts[0]!.length;
    for (const part of parts.slice(1, -1)) {
      const found = n.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
    return at <= n.length - parts[parts.length - 1]!.length;
  };
}

export function listTimeZone(request: RouteRequest): Response {
  const { data } = request;
  const query = queryMap(request.query, false);
  const options = outputOptions(query);
  const { at, holds } = instantOfTime(request, query);
  const code = query.get("country");
  if (code !== undefined && code !== "" && (code === null || countryCode(code) === null)) throw failed("Invalid country code.");
  const zoneText = query.get("zone");
  if (zoneText === null || (zoneText !== undefined && zoneText.length > 64)) throw failed("Invalid zone.");
  const matches = zoneText ? wildcard(zoneText) : null;
  const list: Row[] = [];
  for (const row of zoneTabRows(data)) {
    if (code && row.code !== code.toUpperCase()) continue;
    if (matches && !matches(row.zone.name)) continue;
    const state = zoneStateAt(data.zones, row.zone.zone, at);
    const fields: [string, Value][] = [["countryCode", row.code], ["countryName", row.name], ["zoneName", row.zone.name],
      ["gmtOffset", state.utoff], ["dst", state.isdst ? "1" : "0"], ["timestamp", at + state.utoff]];
    const keep = options.everyField ? null : options.fields ?? LIST_DEFAULT;
    list.push(keep === null ? fields : fields.filter(([k]) => keep.has(k)));
  }
  return render(request, holds, options, [["status", "OK"], ["message", ""]], list);
}

/**
 * convert-time-zone, as the vendor's reference page shows it (from=America/Los_Angeles,
 * to=Australia/Sydney, time=1464793200: fromTimestamp 1464793200, toTimestamp 1464854400,
 * offset 61200) and as its clients use it (namnv609's PHP client sends "06/01/2016 03:00PM"
 * through strtotime as the wall time in `from`): `time` is the wall clock of `from` written
 * as unix seconds, answered unchanged as fromTimestamp; toTimestamp is the wall clock of `to`
 * at that same instant (TimeZoneDB's timestamps are local wall times, as get-time-zone's).
 * The offsets are those in force at the instant that wall time names in `from` (a time the
 * clock skips or repeats is read as Temporal's "compatible" reads it).
 */
export function convertTimeZone(request: RouteRequest): Response {
  const { data } = request;
  const query = queryMap(request.query, false);
  const options = outputOptions(query);
  const { at: fromWall, holds } = instantOfTime(request, query);
  const from = zoneOrAbbreviation(data, query.get("from"));
  const to = zoneOrAbbreviation(data, query.get("to"));
  // Without `time`, now: the wall clock of `from` now.
  const given = query.get("time") !== undefined && query.get("time") !== "";
  const instant = given ? instantOfLocal(data.zones, from.zone, fromWall, "compatible").instant! : fromWall;
  const a = zoneStateAt(data.zones, from.zone, instant);
  const b = zoneStateAt(data.zones, to.zone, instant);
  const fromTimestamp = instant + a.utoff;
  const toTimestamp = instant + b.utoff;
  if (!inPrintableYears(toTimestamp)) throw failed("Invalid time.");
  const row: Row = [["status", "OK"], ["message", ""], ["fromZoneName", from.name], ["fromAbbreviation", a.abbr],
    ["fromTimestamp", fromTimestamp], ["toZoneName", to.name], ["toAbbreviation", b.abbr], ["toTimestamp", toTimestamp],
    ["toFormatted", formatDateTime(toTimestamp).replace("T", " ")], ["offset", b.utoff - a.utoff]];
  return render(request, holds, options, narrow(row, options.fields));
}

const inPrintableYears = (local: number) => local >= FIRST_RFC3339_SECOND && local <= LAST_RFC3339_SECOND;
