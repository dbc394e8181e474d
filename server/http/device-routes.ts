// The handlers of the device routes (their rows are in routes.ts):
//
//   /timezone/{name}/device?at=   a TZ string right from `at` (default now) on any device libc
//   /device?at=                   every name's, as JSON or `.txt`
//   /device.csv?at=               the same as posix_tz_db's two-column CSV
//
// Cacheable (cacheable-answer.ts): a single answer is named by its own content (the string,
// valid_until, refresh_after: cheap to find, a cached footer for most zones), the lists by
// a hash of theirs. For a fixed `at` the answer changes only with the data (a day); for now,
// it holds until the earliest refresh_after in it, an hour at most.

import { resolveNameParam } from "./api.ts";
import { cacheableAnswer } from "./cacheable-answer.ts";
import { deviceAnswer, deviceList, deviceListCsv, deviceListText } from "./device-answer.ts";
import { CSV_TYPE } from "./responses.ts";
import { instantParam } from "./zone-routes.ts";
import type { RouteRequest } from "./routes.ts";

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
    : `timezone: ${answer.timezone}\nposix_tz: ${answer.posix_tz}\nvalid_until: ${answer.valid_until ?? ""}\nrefresh_after: ${answer.refresh_after}\n`);
}

function listAnswer(request: RouteRequest, csv: boolean): Response {
  const at = instantParam(request, "at");
  const now = at?.seconds ?? request.clock().seconds;
  const { list, refreshAfter } = deviceList(request.data.zones, now, request.profile);
  const body = csv ? deviceListCsv(list) : request.format === "json" ? JSON.stringify(list) : deviceListText(list);
  const key = `device-list|${request.profile}|${csv ? "csv" : request.format}|${Bun.hash(body).toString(36)}`;
  return cacheableAnswer(request, key, maxAge(at !== undefined, now, refreshAfter), () => body, csv ? CSV_TYPE : undefined);
}

/** `/device` */
export function deviceIndex(request: RouteRequest): Response {
  return listAnswer(request, false);
}

/** `/device.csv` */
export function deviceCsv(request: RouteRequest): Response {
  return listAnswer(request, true);
}
