// `?tzdb=RELEASE` on a route that answers from tz rules: the same handler, given the same
// data but the zone table of that release (its names, its links, its rules), its own
// renderer, answer cache and ETags, and X-Tzdb-Version naming it. The default release is
// the route's ordinary answer. A name the release lacks is 404 naming the release.

import { HttpError, notFound } from "../pipeline/http-errors.ts";
import type { ApiData } from "../pipeline/api-data.ts";
import type { RouteHandler, RouteRequest } from "../contract.ts";
import { releaseParam } from "./release-param.ts";

/** Each release's data, made on first use, per loaded data (a reload starts afresh). */
const releaseData = new WeakMap<ApiData, Map<string, ApiData>>();

export function dataOfRelease(data: ApiData, release: string): ApiData {
  let byRelease = releaseData.get(data);
  if (byRelease === undefined) {
    byRelease = new Map();
    releaseData.set(data, byRelease);
  }
  let derived = byRelease.get(release);
  if (derived === undefined) {
    derived = data.withZones(data.history.table(release)!);
    byRelease.set(release, derived);
  }
  return derived;
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
  const end = query.indexOf("&", at);
  const value = query.slice(at + 5, end < 0 ? undefined : end);
  return request.data.history.meta(value) === undefined ? undefined : value;
}

export function withTzdb(handle: RouteHandler): RouteHandler {
  return (request, state) => {
    // Nearly every request names no release: one substring test, nothing parsed.
    const at = request.query.indexOf("tzdb=");
    if (at < 0) return handle(request, state);
    const release = servedReleaseAt(request, at) ?? releaseParam(request, "tzdb");
    if (release === undefined || release === request.data.history.defaultRelease) return handle(request, state);
    // The request itself answers from the release's data for the length of this synchronous
    // call (every GET handler is), then goes back: no copy of the request per answer.
    const data = request.data;
    request.data = dataOfRelease(data, release);
    try {
      return handle(request, state);
    } catch (error) {
      if (error instanceof HttpError && error.code === "unknown_location") {
        throw notFound("unknown_location", `unknown location in tzdb ${release}`);
      }
      throw error;
    } finally {
      request.data = data;
    }
  };
}
