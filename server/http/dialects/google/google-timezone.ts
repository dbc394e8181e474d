// Google's Time Zone API at its own paths: /maps/api/timezone/json and /xml (rows in
// ../dialect-routes.ts). `location=lat,lng`, `timestamp` (seconds, negative and fractional
// accepted, as the SDKs send them), `language` (else Accept-Language); `key`, `sensor`,
// `client` and `signature` are accepted and ignored. Every answer is HTTP 200 with a
// `status`, as Google's are: OK, INVALID_REQUEST, ZERO_RESULTS (open sea: the boundary
// data's Etc/GMT zones), OVER_QUERY_LIMIT (our rate limit).
//
// JSON as Google writes it: keys sorted, three-space indent, " : " between key and value,
// integer offsets. XML: one-space indent, offsets with seven decimals, snake_case names.
// timeZoneId is CLDR's canonical id (Asia/Calcutta), timeZoneName CLDR's long name in force
// at the instant, localized (names/), as Google's are.

import { resolveLocale } from "../../../names/locale-tag.ts";
import type { Locale, NamesTable } from "../../../names/names-table.ts";
import { zoneStateAt } from "../../../time-object/zone-state.ts";
import { HttpError } from "../../pipeline/http-errors.ts";
import type { Dialect, DialectErrorContext, RouteRequest } from "../../contract.ts";
import { acceptedLanguages } from "../accept-language.ts";
import { LANGUAGE_TAG, xmlEscape, zonesAtPoint } from "../lookups.ts";
import { degreesOf } from "../../params/point.ts";
import { queryMap } from "../../params/query.ts";
import { MAX_SECONDS, MIN_SECONDS } from "../../params/at-param.ts";
import { ALWAYS } from "../../caching/cacheable-answer.ts";
import { keptAnswer } from "../kept-answers.ts";

export type Output = "json" | "xml";

const TYPES: Record<Output, string> = { json: "application/json; charset=UTF-8", xml: "application/xml; charset=UTF-8" };
const NUMBER = /^[+-]?(?:\d{1,20}(?:\.\d{0,20})?|\.\d{1,20})(?:[eE][+-]?\d{1,3})?$/;

export const invalidRequest = (message: string) => new HttpError("INVALID_REQUEST", 200, message);

type Field = [string, string | number];

function renderJson(fields: Field[]): string {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : 1));
  return `{\n${sorted.map(([k, v]) => `   "${k}" : ${JSON.stringify(v)}`).join(",\n")}\n}\n`;
}

function renderXml(fields: Field[]): string {
  const lines = fields.map(([k, v]) => ` <${k}>${typeof v === "number" ? v.toFixed(7) : xmlEscape(v)}</${k}>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<TimeZoneResponse>\n${lines.join("\n")}\n</TimeZoneResponse>\n`;
}

function send(data: RouteRequest["data"], head: boolean, output: Output, json: Field[], xml: Field[], extra?: Record<string, string>): Response {
  const body = output === "json" ? renderJson(json) : renderXml(xml);
  return data.responses.dialect(body, TYPES[output], 200, head, { extra });
}

function statusAnswer(data: RouteRequest["data"], head: boolean, output: Output, status: string, message: string | null, extra?: Record<string, string>): Response {
  const json: Field[] = [["status", status]];
  const xml: Field[] = [["status", status]];
  if (message !== null) {
    json.push(["errorMessage", message]);
    xml.push(["error_message", message]);
  }
  return send(data, head, output, json, xml, extra);
}


/** Google's codes that are not CLDR's (Hebrew is still `iw` there). */
const GOOGLE_LANGUAGES: Record<string, string> = { iw: "he" };

/** A CLDR locale of Google's language code, or null when CLDR has no such language. */
function cldrLocale(names: NamesTable, tag: string): Locale | null {
  try {
    return resolveLocale(names, GOOGLE_LANGUAGES[tag.toLowerCase()] ?? tag);
  } catch {
    return null;
  }
}

/**
 * The CLDR locale of `language`, else of Accept-Language's most preferred language that CLDR has, else English: "if a
 * name is not available in the preferred language, the API uses the closest match".
 * `byHeader`: the answer depends on Accept-Language (the language named none CLDR has).
 */
function localeOf(names: NamesTable, language: string | null, acceptLanguageHeader: () => string | null): { locale: Locale; byHeader: boolean } {
  const named = language === null ? null : cldrLocale(names, language);
  if (named !== null) return { locale: named, byHeader: false };
  // The most preferred language CLDR has, by Accept-Language's quality values.
  let locale: Locale | null = null;
  for (const tag of acceptedLanguages(acceptLanguageHeader())) if ((locale = cldrLocale(names, tag)) !== null) break;
  locale ??= cldrLocale(names, "en");
  if (locale === null) throw new Error("CLDR has no English names"); // names.bin always holds "en" (load-data.ts checks the table)
  return { locale, byHeader: true };
}

/** CLDR's canonical id of a tz name ("the first alias in timezone.xml": Asia/Calcutta for Asia/Kolkata), as Google answers it. */
function cldrId(names: NamesTable, name: string): string {
  const zone = names.zoneOf(name);
  return zone < 0 ? name : names.zoneId(zone);
}

export const timezone = (output: Output) => (request: RouteRequest): Response => {
  const { data } = request;
  const query = queryMap(request.query, false);
  const location = query.get("location");
  if (location === undefined || location === "") throw invalidRequest("Invalid request. Missing the 'location' parameter.");
  const comma = location?.indexOf(",") ?? -1;
  const lat = comma < 0 ? null : degreesOf(location!.slice(0, comma).trim(), 90);
  const lng = comma < 0 ? null : degreesOf(location!.slice(comma + 1).trim(), 180);
  if (lat === null || lng === null) throw invalidRequest("Invalid request. Invalid 'location' parameter.");
  const stamp = query.get("timestamp");
  if (stamp === undefined || stamp === "") throw invalidRequest("Invalid request. Missing the 'timestamp' parameter.");
  const seconds = stamp !== null && NUMBER.test(stamp) ? Math.floor(Number(stamp)) : NaN;
  // Years 0001-9999 (the Go SDK's test sends -62135596800, 0001-01-01); no local time is printed.
  if (!(seconds >= MIN_SECONDS && seconds <= MAX_SECONDS)) throw invalidRequest("Invalid request. Invalid 'timestamp' parameter.");
  const languageParam = query.get("language");
  const { locale, byHeader } = localeOf(data.names, languageParam && LANGUAGE_TAG.test(languageParam) ? languageParam : null, () => request.header("accept-language"));
  const zone = zonesAtPoint(data, lat, lng)[0]!;
  const canonical = data.zones.zoneName(zone.zone);
  // The boundary data's open sea (Etc/GMT-3): Google has no zone there.
  if (canonical.startsWith("Etc/")) return statusAnswer(data, request.head, output, "ZERO_RESULTS", null);
  const state = zoneStateAt(data.zones, zone.zone, seconds);
  // The specific long name in force at the instant (Intl's timeZoneName "long", TR35's fallbacks).
  const name = data.namer.longNameAt(zone.name, seconds, locale, "specific")!;
  const id = cldrId(data.names, zone.name);
  const body = output === "json"
    ? renderJson([["dstOffset", state.dstOffset], ["rawOffset", state.stdoff], ["status", "OK"], ["timeZoneId", id], ["timeZoneName", name]])
    : renderXml([["status", "OK"], ["raw_offset", state.stdoff], ["dst_offset", state.dstOffset], ["time_zone_id", id], ["time_zone_name", name]]);
  // The query names the instant: the same URL (and, when it was read, Accept-Language's languages) is the same answer.
  return keptAnswer(request, body, TYPES[output], ALWAYS, byHeader);
};

const dialectFor = (output: Output): Dialect => ({
  name: `Google Time Zone (${output})`,
  error(context: DialectErrorContext, error: HttpError, extra?: Record<string, string>) {
    if (error.status === 429) return statusAnswer(context.data, context.head, output, "OVER_QUERY_LIMIT", "You have exceeded your rate-limit for this API.", extra);
    const message = error.code === "INVALID_REQUEST" ? error.message : `Invalid request. ${error.message}`;
    return statusAnswer(context.data, context.head, output, "INVALID_REQUEST", message, extra);
  },
});

export const GOOGLE_JSON = dialectFor("json");
export const GOOGLE_XML = dialectFor("xml");
