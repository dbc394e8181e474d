// The handlers of the device routes (their rows are in routes.ts):
//
//   /timezone/{name}/device?at=   a TZ string right from `at` (default now) on any device libc
//   /device?at=                   every name's, as JSON or `.txt`
//   /device.csv?at=               the same as posix_tz_db's two-column CSV
//
// For a fixed `at` the answer changes only with the data (cached for a day); for now, until
// the earliest refresh_after it holds, at most an hour (a new day may give a later one).

import { resolveNameParam } from "./api.ts";
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
  const { zones, responses } = request.data;
  const name = resolveNameParam(zones, request.params[0]!);
  const at = instantParam(request, "at");
  const now = at?.seconds ?? request.clock().seconds;
  const { answer, refreshAfter } = deviceAnswer(zones, name, now, request.profile);
  const body = request.format === "json" ? JSON.stringify(answer) :
    `timezone: ${answer.timezone}\nposix_tz: ${answer.posix_tz}\nvalid_until: ${answer.valid_until ?? ""}\nrefresh_after: ${answer.refresh_after}\n`;
  return responses.cacheable(body, request.format, request.head, request.ifNoneMatch(), maxAge(at !== undefined, now, refreshAfter));
}

function listOf(request: RouteRequest) {
  const at = instantParam(request, "at");
  const now = at?.seconds ?? request.clock().seconds;
  const { list, refreshAfter } = deviceList(request.data.zones, now, request.profile);
  return { list, age: maxAge(at !== undefined, now, refreshAfter) };
}

/** `/device` */
export function deviceIndex(request: RouteRequest): Response {
  const { list, age } = listOf(request);
  const body = request.format === "json" ? JSON.stringify(list) : deviceListText(list);
  return request.data.responses.cacheable(body, request.format, request.head, request.ifNoneMatch(), age);
}

/** `/device.csv` */
export function deviceCsv(request: RouteRequest): Response {
  const { list, age } = listOf(request);
  return request.data.responses.cacheable(deviceListCsv(list), "text", request.head, request.ifNoneMatch(), age, CSV_TYPE);
}
