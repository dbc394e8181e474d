// `/clock?zones=A,B,C[&at=]` (and `/api/clock`): a world clock in one call. Every name's
// time object for ONE reading of the clock, in request order with duplicates kept, each
// the very bytes `/timezone/{name}?at=<that instant>` answers in the same profile and
// format (the same renderer, client_ip included). JSON: an array; `.txt`: the objects'
// lines, separated by a blank line. Ten clocks are one request and one clock reading, and
// cost ten time objects of the client's rate budget (RouteRequest.cost: admitted while the
// client has a token, as any request, then charged the rest).

import { timezoneNameTails } from "../params/lang-param.ts";
import { checkLocalYears, instantParam } from "../params/at-param.ts";
import { badRequest, notFound } from "../pipeline/http-errors.ts";
import { queryParam } from "../params/query.ts";
import { MAX_NAME_LENGTH, zoneNamed } from "../params/zone-name.ts";
import type { RouteRequest } from "../contract.ts";
import type { ResolvedName } from "../../tz/zone-table.ts";

/** The most names one /clock answers (more is a 400). */
export const MAX_CLOCK_ZONES = 100;
const encoder = new TextEncoder();
const OPEN = encoder.encode("[");
const JSON_SEPARATOR = encoder.encode(",");
const CLOSE = encoder.encode("]");
const TEXT_SEPARATOR = encoder.encode("\n");

/** A name as an error message may quote it: clipped, and printable ASCII only (it is echoed in `.txt` errors too). */
const quoted = (name: string) =>
  (name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}...` : name).replace(/[^\x21-\x7e]/g, "?");

/** The `zones` parameter as resolved names, in order; 400 for a malformed list, 404 naming the first unknown name. */
function requestedZones(request: RouteRequest): ResolvedName[] {
  const value = queryParam(request.query, "zones");
  if (value === undefined || value === "") {
    throw badRequest("missing_parameter", "missing zones: a comma-separated list of up to 100 timezone names");
  }
  if (value === null) throw badRequest("bad_parameter", "invalid zones: broken percent-encoding");
  const names = value.split(",");
  if (names.length > MAX_CLOCK_ZONES) {
    throw badRequest("too_many_zones", `too many zones: ${names.length} names, at most ${MAX_CLOCK_ZONES} per request`);
  }
  const { zones } = request.data;
  const resolved: ResolvedName[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name === "") throw badRequest("bad_parameter", `invalid zones: name ${i + 1} is empty`);
    const found = zoneNamed(zones, name);
    // The message starts as the single route's does ("unknown location"), for clients that match on it.
    if (!found) throw notFound("unknown_location", `unknown location: ${quoted(name)}`);
    resolved.push(found);
  }
  return resolved;
}

/** The names a query asks for, kept per query text (caching/memos.ts): the list is parsed and resolved once. */
function rememberedZones(request: RouteRequest): readonly ResolvedName[] {
  const memo = request.data.memos.clockLists;
  const known = memo.get(request.query);
  if (known !== undefined) return known;
  const names = Object.freeze(requestedZones(request));
  memo.set(request.query, names);
  return names;
}

/** `/clock` */
export function worldClock(request: RouteRequest): Response {
  const names = rememberedZones(request);
  request.cost = names.length;
  const at = instantParam(request, "at");
  const instant = at ?? request.clock(); // the one reading every object shares
  if (at !== undefined) for (const name of names) checkLocalYears(at, request.data.zones.periodAt(name.zone, at.seconds).type.utoff, name.name);
  const { renderer, responses } = request.data;
  const json = request.format === "json";
  const separator = json ? JSON_SEPARATOR : TEXT_SEPARATOR;
  const parts: Uint8Array[] = new Array(names.length);
  let length = json ? OPEN.length + CLOSE.length : 0;
  // `?lang=` as on every time object: timezone_name added, a bad tag refused (lang-param.ts).
  const tails = timezoneNameTails(request, names, instant.seconds);
  for (let i = 0; i < names.length; i++) {
    parts[i] = renderer.render(names[i]!, instant, request.clientAddress, request.profile, request.format, tails === null ? null : tails[i]!);
    length += parts[i]!.length + (i > 0 ? separator.length : 0);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  if (json) {
    body.set(OPEN, 0);
    offset = OPEN.length;
  }
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) {
      body.set(separator, offset);
      offset += separator.length;
    }
    body.set(parts[i]!, offset);
    offset += parts[i]!.length;
  }
  if (json) body.set(CLOSE, offset);
  return responses.timeObject(body, request.format, request.head);
}
