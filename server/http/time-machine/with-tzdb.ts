// `?tzdb=RELEASE` on a route that answers from tz rules: the same handler, given the same
// data but the zone table of that release (its names, its links, its rules), its own
// renderer, answer cache and ETags, and X-Tzdb-Version naming it. The default release is
// the route's ordinary answer. A name the release lacks is 404 naming the release.

import { HttpError, notFound } from "../pipeline/http-errors.ts";
import type { ApiData } from "../pipeline/api-data.ts";
import type { AppState, RouteHandler, RouteRequest } from "../contract.ts";
import { releaseParam } from "./release-param.ts";

/** A release's data (`release` already known to be served): made once per load, then kept in data.releaseData. */
export function dataOfRelease(data: ApiData, release: string): ApiData {
  let derived = data.releaseData.get(release);
  if (derived === undefined) {
    derived = data.withZones(data.history.table(release)!);
    data.releaseData.set(release, derived);
  }
  return derived;
}

/** Where a plain `tzdb=VALUE` pair found at `at` ends (the `&` after it, or the query's end). */
function pairEnd(query: string, at: number): number {
  const end = query.indexOf("&", at);
  return end < 0 ? query.length : end;
}

/**
 * The common case read in place: `tzdb=` as a whole parameter whose value is a release
 * served, spelled plainly. Anything else (escapes, a repeat, a bad value) is left to
 * releaseParam, which decides and names the error.
 */
function servedReleaseAt(request: RouteRequest, at: number): string | undefined {
  const { query } = request;
  if (at > 0 && query.charCodeAt(at - 1) !== 38 /* & */) return undefined;
  if (query.indexOf("tzdb=", at + 5) >= 0) return undefined;
  const value = query.slice(at + 5, pairEnd(query, at));
  return request.data.history.meta(value) === undefined ? undefined : value;
}

/**
 * The query without the plain `tzdb=` pair at `at`: what the handler reads is then the
 * query it would have without the release, so `?tzdb=2019c` alone is an empty query and
 * takes the same fast paths (no `at`, no `lang`) as the default answer.
 */
function withoutPair(query: string, at: number): string {
  const end = pairEnd(query, at);
  if (at === 0) return end === query.length ? "" : query.slice(end + 1);
  return query.slice(0, at - 1) + query.slice(end);
}

/** What a query naming a release asks for; undefined when it names none after all (`xtzdb=`). Kept per query. */
function releaseQuery(request: RouteRequest): { data: ApiData; query: string } | undefined {
  const { data, query } = request;
  const kept = data.releaseQueries.get(query);
  if (kept !== undefined) return kept;
  const at = query.indexOf("tzdb=");
  const plain = servedReleaseAt(request, at);
  const release = plain ?? releaseParam(request, "tzdb");
  if (release === undefined) return undefined;
  const asked = {
    data: release === data.history.defaultRelease ? data : dataOfRelease(data, release),
    query: plain === undefined ? query : withoutPair(query, at),
  };
  data.releaseQueries.set(query, asked);
  return asked;
}

/**
 * A request on a row that takes `?tzdb=` (RouteRow.tzdb) whose query names it
 * (pipeline/handler.ts decides once per URL, with the route): `handle`'s answer from that
 * release's data. Every other request goes to the handler directly, nothing parsed.
 */
export function answerInRelease(handle: RouteHandler, request: RouteRequest, state: AppState): Response | Promise<Response> {
  const asked = releaseQuery(request);
  if (asked === undefined) return handle(request, state);
  // The request itself answers from the release's data for the length of the handler's
  // call, then goes back: no copy of the request per answer. An answer made later keeps
  // it until made (its request is its own: contract.ts, RouteRow.later). Its URL still
  // names the release, so what is remembered by URL stays the release's.
  const { data, query } = request;
  const restore = () => {
    request.data = data;
    request.query = query;
  };
  const refused = (error: unknown) => error instanceof HttpError && error.code === "unknown_location"
    ? notFound("unknown_location", `unknown location in tzdb ${asked.data.zones.tzdbVersion}`) : error;
  request.data = asked.data;
  request.query = asked.query;
  let answer: Response | Promise<Response>;
  try {
    answer = handle(request, state);
  } catch (error) {
    restore();
    throw refused(error);
  }
  if (!(answer instanceof Promise)) {
    restore();
    return answer;
  }
  return answer.then((made) => (restore(), made), (error) => {
    restore();
    throw refused(error);
  });
}
