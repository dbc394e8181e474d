// `/places?q=TEXT[&country=CC][&limit=N][&lang=TAG]`: places by name, best first (their
// row is in routes.ts; the search is server/places/place-table.ts). Every parameter is
// checked before any search: a 400 names the one that is wrong.
//
// `lang` (a BCP 47 tag, resolved as on /info through CLDR's fallback chain) gives each
// place's `country_name` in that language, from the names table; place and region names
// stay as GeoNames spells them (its localized names of small places were left out of the
// table to keep it small).

import { countryCode } from "../params/country.ts";
import { MAX_LIMIT } from "../../formats/places-format.ts";
import { resolveLocale } from "../../names/locale-tag.ts";
import { DEFAULT_LIMIT, type Place } from "../../places/place-table.ts";
import { ALWAYS, cacheableAnswer } from "../caching/cacheable-answer.ts";
import { badRequest } from "../pipeline/http-errors.ts";
import { queryParam } from "../params/query.ts";
import type { RouteRequest } from "../contract.ts";

export const MAX_QUERY_LENGTH = 100;
/** The answer changes only with the data. */
const MAX_AGE = 86400;

function param(request: RouteRequest, name: string): string | undefined {
  const value = queryParam(request.query, name);
  if (value === null) throw badRequest("bad_parameter", `invalid ${name}: broken percent-encoding`);
  return value;
}

/** A C0 or C1 control character, or DEL: never part of a place's name. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** The checked `q`: 1..MAX_QUERY_LENGTH characters (code points), no control characters. */
export function placesQuery(raw: string | undefined): string {
  if (raw === undefined || raw.length === 0) throw badRequest("missing_parameter", "missing q: the name of a place, 1 to 100 characters");
  // A code point outside the BMP is two UTF-16 units: count characters as people do.
  if (raw.length > MAX_QUERY_LENGTH && [...raw].length > MAX_QUERY_LENGTH) throw badRequest("bad_parameter", `invalid q: longer than ${MAX_QUERY_LENGTH} characters`);
  if (hasControl(raw)) throw badRequest("bad_parameter", "invalid q: control characters");
  if (raw.trim().length === 0) throw badRequest("missing_parameter", "missing q: the name of a place, 1 to 100 characters");
  return raw;
}

export function placesLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const value = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= MAX_LIMIT)) throw badRequest("bad_parameter", `invalid limit: a whole number from 1 to ${MAX_LIMIT}`);
  return value;
}

/** `/places` */
export function places(request: RouteRequest): Response {
  const table = request.data.places;
  const q = placesQuery(param(request, "q"));
  const limit = placesLimit(param(request, "limit"));
  const countryText = param(request, "country");
  let country: string | undefined;
  if (countryText !== undefined) {
    country = countryCode(countryText) ?? "";
    if (!table.hasCountry(country)) throw badRequest("bad_parameter", "invalid country: an ISO 3166-1 alpha-2 code, e.g. FR");
  }
  const lang = param(request, "lang");
  const locale = lang === undefined ? null : resolveLocale(request.data.names, lang);
  // JSON.stringify of the objects measured faster than writing the text by hand (bench: places).
  const key = `places|${limit}|${country ?? ""}|${locale?.tag ?? ""}|${q}`;
  return cacheableAnswer(request, key, MAX_AGE, () => {
    const found = table.searchPlaces(q, { country, limit });
    if (locale === null) return JSON.stringify(found);
    const { names, namer } = request.data;
    return JSON.stringify(found.map((place): Place => {
      const region = names.regionIndex(place.country);
      return region < 0 ? place : { ...place, country_name: namer.countryName(region, locale) };
    }));
  }, undefined, ALWAYS);
}
