// The handlers of the device routes (their rows are in routes.ts):
//
//   /timezone/{name}/device?at=   a TZ string right from `at` (default now) on any device libc
//   /device?at=                   every name's, as JSON or `.txt`
//   /device.csv?at=               the same as posix_tz_db's two-column CSV
//
// Cacheable (cacheable-answer.ts): a single answer is named by its own content (the string,
// valid_until, refresh_after: cheap to find, a cached footer for most zones), the lists by
// the instant they are computed at: `at`, or for now the start of the current period (the
// hour; a minute or the second near a change), their `at` field. For a fixed `at` the answer
// changes only with the data (a day); for now, it holds until the earliest refresh_after in
// it, an hour at most.

import { resolveNameParam } from "../params/zone-name.ts";
import { ALWAYS, cacheableAnswer } from "../caching/cacheable-answer.ts";
import { cacheableAnswerLater } from "../caching/answer-later.ts";
import { deviceAnswer, deviceList, deviceListCsv, deviceListInTurns, deviceListText } from "./device-answer.ts";
import { CSV_TYPE } from "../pipeline/responses.ts";
import { instantParam } from "../params/at-param.ts";
import type { RouteRequest } from "../contract.ts";

const DAY = 86400;
const HOUR = 3600;

function maxAge(fixed: boolean, now: number, refreshAfter: number): number {
  return fixed ? DAY : Math.max(0, Math.min(HOUR, Math.floor(refreshAfter - now)));
}

/** `/timezone/{name*}/device` */
export function device(request: RouteRequest): Response {
  const { zones } = request.data;
  const name = resolveNameParam(zones, request.params[0]!);
  const at = instantParam(request, "at");
  const now = at?.seconds ?? request.clock().seconds;
  const { answer, refreshAfter } = deviceAnswer(zones, name, now, request.profile);
  const key = `device|${request.profile}|${request.format}|${answer.timezone}|${answer.posix_tz}|${answer.valid_until}|${answer.refresh_after}`;
  return cacheableAnswer(request, key, maxAge(at !== undefined, now, refreshAfter), () => request.format === "json" ? JSON.stringify(answer)
    : `timezone: ${answer.timezone}\nposix_tz: ${answer.posix_tz}\nvalid_until: ${answer.valid_until ?? ""}\nrefresh_after: ${answer.refresh_after}\n`,
  // The string for now (and its max-age) is the same URL's answer for this second only.
  undefined, at !== undefined ? ALWAYS : { always: false, second: now });
}

/**
 * What a list built for an `?at=` costs the budget, whatever its size. Each zone answers
 * from the stretches its worker has kept (device/device-intervals.ts: a binary search, about
 * 20 time objects a list with the body), but an instant no kept stretch holds still walks
 * that zone's rules: a fresh worker's lists for random 1900-2000 instants cost about 100
 * time objects each (`bun scripts/bench/answer-prices.ts`), so the price stays. A list for
 * now is built once per period (below) and then costs what its body does, like any cached answer.
 */
export const DEVICE_LIST_BUILD_COST = 25;

/** Periods a list for now is computed at the start of, coarsest first: an hour, a minute near a change, else the second. */
const PERIODS = [HOUR, 60, 1];

/** Per data, per profile: the earliest refresh_after of the list computed at a period's start (unix seconds). */
const refreshOfPeriod = new WeakMap<object, Map<string, number>>();

/**
 * The instant a list for `now` is computed at: the start of the coarsest period whose list
 * is still right now (its earliest refresh_after, which comes before any of its strings
 * stops being right, is after `now`). Every worker picks the same one, so the key and the
 * ETag change only with the data and the period, not every second, and a revalidation is a
 * 304 that builds nothing once this worker knows the period.
 */
function periodStart(request: RouteRequest, now: number): number {
  const { zones } = request.data;
  let known = refreshOfPeriod.get(zones);
  if (known === undefined) refreshOfPeriod.set(zones, (known = new Map()));
  for (const period of PERIODS) {
    const start = Math.floor(now / period) * period;
    if (period === 1) return start;
    const id = `${request.profile}|${start}`;
    let refresh = known.get(id);
    if (refresh === undefined) {
      refresh = deviceList(zones, start, request.profile).refreshAfter;
      if (known.size > 64) known.clear(); // old periods: a few a day
      known.set(id, refresh);
    }
    if (now < refresh) return start;
  }
  return Math.floor(now);
}

function listAnswer(request: RouteRequest, csv: boolean): Response | Promise<Response> {
  const at = instantParam(request, "at");
  const fixed = at !== undefined;
  const now = at?.seconds ?? request.clock().seconds;
  const instant = fixed ? now : periodStart(request, now);
  const format = csv ? "csv" : request.format;
  const key = `device-list|${request.profile}|${format}|${fixed ? "at" : "now"}|${instant}`;
  const { zones } = request.data; // the release's, under ?tzdb= (read before the build's first turn)
  const { profile } = request;
  const json = request.format === "json";
  const build = async () => {
    const list = await deviceListInTurns(zones, instant, profile);
    return csv ? deviceListCsv(list) : json ? JSON.stringify(list) : deviceListText(list);
  };
  // For now: until the period's list should be asked for again (0 for a list of the second).
  const refresh = fixed ? now : refreshOfPeriod.get(zones)?.get(`${profile}|${instant}`) ?? now;
  // The list for now is the same URL's answer for this second (a list for a fixed `at` is
  // not remembered: it is priced by its build below, which a remembered answer would skip).
  const answer = cacheableAnswerLater(request, key, maxAge(fixed, now, refresh), build, csv ? CSV_TYPE : undefined, fixed ? undefined : { always: false, second: now });
  if (!fixed) return answer;
  // A list for a fixed instant costs DEVICE_LIST_BUILD_COST, kept or not (a 304 stays 1);
  // one made in turns is charged it up front.
  const priced = (made: Response) => {
    if (made.status === 200) request.cost = Math.max(request.cost, DEVICE_LIST_BUILD_COST);
    return made;
  };
  if (!(answer instanceof Promise)) return priced(answer);
  request.cost = Math.max(request.cost, DEVICE_LIST_BUILD_COST);
  return answer.then(priced);
}

/** `/device` */
export function deviceIndex(request: RouteRequest): Response | Promise<Response> {
  return listAnswer(request, false);
}

/** `/device.csv` */
export function deviceCsv(request: RouteRequest): Response | Promise<Response> {
  return listAnswer(request, true);
}
