// timeapi.io's conversions and calculations (rows in ../dialect-routes.ts):
//
//   POST /api/Conversion/ConvertTimeZone   {fromTimeZone, dateTime, toTimeZone, dstAmbiguity}
//   POST /api/Conversion/Translate         {dateTime, languageCode} (translate-route.ts)
//   GET  /api/Conversion/DayOfTheWeek/{yyyy-MM-dd}, /api/Conversion/DayOfTheYear/{yyyy-MM-dd}
//   POST /api/Calculation/current/increment|decrement   {timeZone, timeSpan}
//   POST /api/Calculation/custom/increment|decrement    {timeZone, dateTime, timeSpan, dstAmbiguity}
//
// Bodies are JSON or form-encoded (a Flutter client posts a form), keys in any letter case
// as ASP.NET's model binding reads them. A local date-time that the clock skips or repeats
// is resolved by dstAmbiguity: "" as Temporal's compatible, "earlier", "later".

import { dayOfYear, civilFromDays, daysFromCivil, daysInMonth, SECONDS_PER_DAY } from "../../../core/calendar.ts";
import type { Instant } from "../../../core/clock.ts";
import { FIRST_RFC3339_SECOND, LAST_RFC3339_SECOND } from "../../../core/time-format.ts";
import { zoneStateAt } from "../../../time-object/zone-state.ts";
import { instantOfLocal, type Disambiguation } from "../../../tz/local-time.ts";
import type { ResolvedName } from "../../../tz/zone-table.ts";
import type { RouteRequest } from "../../contract.ts";
import { zoneByName } from "../lookups.ts";
import { queryMap } from "../../params/query.ts";
import { sendJson } from "./legacy-routes.ts";
import { currentTimeFields, dotnetLocal, INVALID_TIMEZONE, timeapiError, weekdayOfLocal } from "./timeapi-format.ts";

/** `yyyy-MM-dd HH:mm:ss[.ffffff]`, a `T` allowed too. */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** `d:hh:mm:ss[.fff]`, as timeapi.io's schema writes a timeSpan; `hh:mm:ss` too (.NET's TimeSpan). */
const TIME_SPAN = /^(?:(\d{1,6}):)?(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,7}))?$/;

type Body = Map<string, string>;

/** A POST body as a map of lowercased keys to string values. */
export function parseBody(text: string, contentType: string | null): Body {
  const out: Body = new Map();
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw timeapiError("Invalid request body: not JSON");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw timeapiError("Invalid request body");
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value === "string" || typeof value === "number") out.set(key.toLowerCase(), String(value));
    }
    return out;
  }
  if (trimmed === "" || (contentType !== null && contentType.toLowerCase().startsWith("application/json"))) throw timeapiError("Invalid request body");
  for (const [key, value] of queryMap(trimmed, true)) if (value !== null) out.set(key, value);
  return out;
}

function required(body: Body, key: string, what: string): string {
  const value = body.get(key.toLowerCase());
  if (value === undefined || value === "") throw timeapiError(`${what} is required`);
  return value;
}

function zoneParam(request: RouteRequest, body: Body, key: string): ResolvedName {
  return zoneByName(request.data, required(body, key, key)) ?? (() => { throw INVALID_TIMEZONE(); })();
}

function ambiguity(body: Body): Disambiguation {
  const value = (body.get("dstambiguity") ?? "").toLowerCase();
  if (value === "") return "compatible";
  if (value === "earlier" || value === "later") return value;
  throw timeapiError("Invalid dstAmbiguity: use \"\", \"earlier\" or \"later\"");
}

interface LocalDateTime { seconds: number; micros: number }

export function parseLocal(text: string): LocalDateTime {
  const m = LOCAL.exec(text);
  if (!m) throw timeapiError("Invalid dateTime: use yyyy-MM-dd HH:mm:ss[.ffffff]");
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (y! < 1 || mo! < 1 || mo! > 12 || d! < 1 || d! > daysInMonth(y!, mo!) || h! > 23 || mi! > 59 || s! > 59) {
    throw timeapiError("Invalid dateTime: no such date or time");
  }
  const micros = m[7] === undefined ? 0 : Number(m[7].slice(0, 6).padEnd(6, "0"));
  return { seconds: daysFromCivil(y!, mo!, d!) * SECONDS_PER_DAY + h! * 3600 + mi! * 60 + s!, micros };
}

function instantIn(request: RouteRequest, zone: ResolvedName, local: LocalDateTime, mode: Disambiguation): Instant {
  const seconds = instantOfLocal(request.data.zones, zone.zone, local.seconds, mode).instant!;
  return { seconds, micros: local.micros };
}

function inYears(localSeconds: number): boolean {
  return localSeconds >= FIRST_RFC3339_SECOND && localSeconds <= LAST_RFC3339_SECOND;
}

/** The result object of a conversion or calculation: the current-time fields without dayOfWeek. */
function resultObject(request: RouteRequest, zone: ResolvedName, instant: Instant): string {
  const state = zoneStateAt(request.data.zones, zone.zone, instant.seconds);
  const local = instant.seconds + state.utoff;
  if (!inYears(local)) throw timeapiError("The result is outside years 0001-9999");
  return `{${currentTimeFields(local, instant.micros)},"timeZone":${JSON.stringify(zone.name)},"dstActive":${state.isdst}}`;
}

/** POST Conversion/ConvertTimeZone. */
export function convertTimeZone(request: RouteRequest, text: string, contentType: string | null): Response {
  const body = parseBody(text, contentType);
  const from = zoneParam(request, body, "fromTimeZone");
  const to = zoneParam(request, body, "toTimeZone");
  const local = parseLocal(required(body, "dateTime", "dateTime"));
  const instant = instantIn(request, from, local, ambiguity(body));
  const result = resultObject(request, to, instant);
  return sendJson(request, `{"fromTimezone":${JSON.stringify(from.name)},"fromDateTime":"${dotnetLocal(local.seconds, local.micros)}",` +
    `"toTimeZone":${JSON.stringify(to.name)},"conversionResult":${result}}`);
}

function dateParam(request: RouteRequest): number {
  const m = DATE.exec(request.params[0] ?? "");
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  if (!m || y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) throw timeapiError("Invalid date: use yyyy-MM-dd");
  return daysFromCivil(y, mo, d);
}

/** GET Conversion/DayOfTheWeek/{date}. */
export function dayOfTheWeek(request: RouteRequest): Response {
  return sendJson(request, `{"dayOfWeek":"${weekdayOfLocal(dateParam(request) * SECONDS_PER_DAY)}"}`, request.cache.cacheControl(86400));
}

/** GET Conversion/DayOfTheYear/{date}. */
export function dayOfTheYear(request: RouteRequest): Response {
  return sendJson(request, `{"day":${dayOfYear(civilFromDays(dateParam(request)))}}`, request.cache.cacheControl(86400));
}

/** A timeSpan in seconds and microseconds. */
function parseTimeSpan(text: string): { seconds: number; micros: number } {
  const m = TIME_SPAN.exec(text);
  if (!m) throw timeapiError("Invalid timeSpan: use d:hh:mm:ss[.fff]");
  const [d, h, mi, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || mi > 59 || s > 59) throw timeapiError("Invalid timeSpan: use d:hh:mm:ss[.fff]");
  return { seconds: d * SECONDS_PER_DAY + h * 3600 + mi * 60 + s, micros: m[5] === undefined ? 0 : Number(m[5].slice(0, 6).padEnd(6, "0")) };
}

function shifted(instant: Instant, span: { seconds: number; micros: number }, sign: 1 | -1): Instant {
  let micros = instant.micros + sign * span.micros;
  let seconds = instant.seconds + sign * span.seconds;
  if (micros < 0) { micros += 1_000_000; seconds -= 1; }
  if (micros >= 1_000_000) { micros -= 1_000_000; seconds += 1; }
  return { seconds, micros };
}

/** POST Calculation/{current|custom}/{increment|decrement}: an elapsed time added to an instant. */
export const calculation = (custom: boolean, sign: 1 | -1) => (request: RouteRequest, text: string, contentType: string | null): Response => {
  const body = parseBody(text, contentType);
  const zone = zoneParam(request, body, "timeZone");
  const spanText = required(body, "timeSpan", "timeSpan");
  const span = parseTimeSpan(spanText);
  let start: Instant;
  if (custom) start = instantIn(request, zone, parseLocal(required(body, "dateTime", "dateTime")), ambiguity(body));
  else start = request.clock();
  const startLocal = start.seconds + zoneStateAt(request.data.zones, zone.zone, start.seconds).utoff;
  const result = resultObject(request, zone, shifted(start, span, sign));
  return sendJson(request, `{"timeZone":${JSON.stringify(zone.name)},"originalDateTime":"${dotnetLocal(startLocal, start.micros)}",` +
    `"usedTimeSpan":${JSON.stringify(spanText)},"calculationResult":${result}}`);
};
