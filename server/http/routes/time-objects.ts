// The API's route handlers (their rows are in routing/route-table.ts):
//
//   /timezone                       every name
//   /timezone/{area}[/{sub}]        the names under a prefix (America, America/Argentina)
//   /timezone/{name}                a time object (any Zone or Link, any letter case)
//   /ip, /ip/{address}              a time object for the caller's or any address
//   /api/{name}                     WorldTimeAPI's short form of /api/timezone/{name}
//   /coordinates/{lat},{lng}        a time object for the zone at a point
//   ...with `.txt` for plain text, a trailing slash allowed, `?at=` for another instant,
//   and all of it again under /api in the WorldTimeAPI profile.

import { countryCode } from "../params/country.ts";
import { asciiLowerCase } from "../../core/ascii-fold.ts";
import { formatIp, parseIp, type IpAddress } from "../../ip/address.ts";
import { lookupKey } from "../../ip/special-ranges.ts";
import type { ResolvedName, ZoneTable } from "../../tz/zone-table.ts";
import { instantAt } from "../params/at-param.ts";
import { parseCoordinates } from "../params/point.ts";
import { badRequest, MALFORMED_IP, MALFORMED_PATH, NOT_FOUND, UNKNOWN_LOCATION } from "../pipeline/http-errors.ts";
import { safeDecode } from "../pipeline/request-target.ts";
import { queryParam } from "../params/query.ts";
import { ALWAYS, cacheableAnswer } from "../caching/cacheable-answer.ts";
import { listBody } from "../pipeline/responses.ts";
import type { RouteRequest } from "../contract.ts";
import { timezoneNameTail } from "../params/lang-param.ts";
import { nameParam, zoneNamed } from "../params/zone-name.ts";
import { countryZones, searchZones } from "../../names/zone-search.ts";
import { releaseCountryZones } from "../../names/release-country-zones.ts";
import { searchFold } from "../../core/search-fold.ts";

/** Lists change only with the data. */
const LIST_MAX_AGE = 3600;

/** `/timezone`: every name; at the root `?country=CC` (zone.tab's names) or `?q=TEXT` (the names a word may mean). */
export function timezoneList(request: RouteRequest): Response {
  const { data } = request;
  if (request.profile === "spec" && request.query.length > 0) {
    const country = queryParam(request.query, "country");
    const q = country === undefined ? queryParam(request.query, "q") : undefined;
    if (country === null || q === null) throw badRequest("bad_parameter", "invalid query: broken percent-encoding");
    if (country !== undefined || q !== undefined) {
      // A key names one validity: a refusal is never cached, so a kept answer's query was
      // valid and a repeated query skips the search. (params/country.ts: a code that is no two
      // ASCII letters keys its own refusal.)
      const key = country !== undefined
        ? `country|${request.format}|${countryCode(country) ?? `?${country}`}`
        : `q|${request.format}|${q}`;
      let names: string[] | null = null;
      if (data.answers.get(key) === undefined) names = zoneNames(request, country, q!);
      return cacheableAnswer(request, key, LIST_MAX_AGE, () => {
        const list = names ?? zoneNames(request, country, q!);
        return request.format === "json" ? JSON.stringify(list) : list.map((n) => `${n}\n`).join("");
      }, undefined, ALWAYS);
    }
  }
  return cacheableAnswer(request, `list|${request.format}|`, LIST_MAX_AGE, () => listBody(request.data.zones.names, request.format), undefined, ALWAYS);
}

/** zone.tab's names for `country` (the `?tzdb=` release's), or the names `q` may mean; a 400 for a bad one. */
function zoneNames(request: RouteRequest, country: string | undefined, q: string): string[] {
  const { names, zones, history } = request.data;
  if (country !== undefined && zones.tzdbVersion !== history.defaultRelease) return releaseCountryZones(history, zones.tzdbVersion, country);
  return country !== undefined ? countryZones(names, country) : searchZones(names, q, (folded) => placeZone(request, q, folded));
}

/**
 * /timezone?q= beyond CLDR's words: the zone of the best-ranked place whose name is the
 * whole query ("mumbai", which no zone, link or exemplar city is called), asked only when
 * the names table knows none. Only a whole name, and only the place people mean (the first).
 */
function placeZone(request: RouteRequest, q: string, folded: string): string[] {
  for (const place of request.data.places.searchPlaces(q, { limit: 5 })) {
    if (searchFold(place.name) === folded) return [place.timezone];
  }
  return [];
}

/** `/timezone/{name*}`: a time object, or the names under a prefix. */
export function timezoneName(request: RouteRequest): Response {
  const { zones } = request.data;
  const name = nameParam(request.params[0]!);
  const resolved = zoneNamed(zones, name);
  if (resolved) return timeObjectOf(request, resolved);
  // Each list its own answer (and ETag), named by its folded prefix; a prefix with no names is 404.
  const folded = asciiLowerCase(name);
  if (folded === null || folded === "") throw UNKNOWN_LOCATION();
  const key = `list|${request.format}|${folded}`;
  let under: string[] | null = null;
  if (request.data.answers.get(key) === undefined) {
    under = namesUnder(zones, folded);
    if (under.length === 0) throw UNKNOWN_LOCATION();
  }
  return cacheableAnswer(request, key, LIST_MAX_AGE, () => listBody(under ?? namesUnder(zones, folded), request.format));
}

function timeObjectOf(request: RouteRequest, resolved: ResolvedName): Response {
  const instant = instantAt(request, resolved);
  const body = request.data.renderer.render(resolved, instant, request.clientAddress, request.profile, request.format, timezoneNameTail(request, resolved, instant.seconds));
  return request.data.responses.timeObject(body, request.format, request.head);
}

/**
 * `/api/{name*}`, WorldTimeAPI's short form (`/api/Europe/London`, as worldtimeapi.org
 * answered and R's worldtimer calls it): a time object as `/api/timezone/{name}` gives.
 * Anything else keeps the 404 an unknown /api path has.
 */
export function worldTimeApiAlias(request: RouteRequest): Response {
  const name = nameParam(request.params[0]!);
  const resolved = request.data.zones.resolve(name);
  if (resolved) return timeObjectOf(request, resolved);
  throw name.includes("/") ? UNKNOWN_LOCATION() : NOT_FOUND();
}

/** `/ip`: a time object for the caller's address. */
export function callerIp(request: RouteRequest): Response {
  if (request.clientAddress === null) throw UNKNOWN_LOCATION();
  return ipTimeObject(request, request.clientAddress, request.clientAddress);
}

/** `/ip/{address*}`: a time object for any address, shown as client_ip normalised. */
export function ipAddress(request: RouteRequest): Response {
  const raw = request.params[0]!;
  const { addresses } = request.data.memos;
  let located = addresses.get(raw);
  if (located === undefined) {
    const text = safeDecode(raw);
    const address = text === null ? null : parseIp(text);
    if (!address) throw MALFORMED_IP();
    located = { zone: zoneOfAddress(request, address), shown: formatIp(address) };
    addresses.set(raw, located);
  }
  return ipTimeObjectIn(request, located.zone, located.shown);
}

/** `/coordinates/{point}`: a time object for the zone at a latitude, longitude. */
export function coordinates(request: RouteRequest): Response {
  const raw = request.params[0]!;
  const { geo, zones, renderer, responses, memos: { points } } = request.data;
  let located = points.get(raw);
  if (located === undefined) {
    const text = safeDecode(raw);
    if (text === null) throw MALFORMED_PATH();
    const { lat, lng } = parseCoordinates(text);
    const zonesThere = geo.answers[geo.answerAt(lat, lng)]!;
    // Every name of geo.bin resolves (load-data.ts checks at load).
    located = { zone: zones.resolve(zonesThere[0]!)!, others: zonesThere.slice(1) };
    points.set(raw, located);
  }
  const resolved = located.zone;
  const instant = instantAt(request, resolved);
  const body = renderer.render(resolved, instant, request.clientAddress, request.profile, request.format, timezoneNameTail(request, resolved, instant.seconds));
  return located.others.length === 0
    ? responses.timeObject(body, request.format, request.head)
    : responses.timeObjectWithOthers(body, request.format, request.head, located.others);
}

/** The caller's address (`shown` as given) as a time object. */
function ipTimeObject(request: RouteRequest, text: string, shown: string): Response {
  const address = parseIp(text);
  if (!address) throw MALFORMED_IP();
  return ipTimeObjectIn(request, zoneOfAddress(request, address), shown);
}

/** A time object in `resolved` with `shown` as client_ip. */
function ipTimeObjectIn(request: RouteRequest, resolved: ResolvedName, shown: string): Response {
  const instant = instantAt(request, resolved);
  const body = request.data.renderer.render(resolved, instant, shown, request.profile, request.format, timezoneNameTail(request, resolved, instant.seconds));
  return request.data.responses.timeObject(body, request.format, request.head);
}

function zoneOfAddress(request: RouteRequest, address: IpAddress) {
  const key = lookupKey(address);
  if (key.version === 0) throw UNKNOWN_LOCATION();
  const zoneName = request.data.ip.zoneFor(key);
  const resolved = zoneName === null ? undefined : request.data.zones.resolve(zoneName);
  if (!resolved) throw UNKNOWN_LOCATION();
  return resolved;
}

/** `?at=`, or now; an instant whose local time in `name` is outside years 0001-9999 is refused. */
/** Names under a prefix such as `america` or `america/argentina` (ASCII-folded), canonical casing. */
function namesUnder(zones: ZoneTable, folded: string): string[] {
  const lower = `${folded}/`;
  return zones.names.filter((n) => n.toLowerCase().startsWith(lower));
}
