// A tzdb release named in a query (`?tzdb=2019c`, `?from=2025c&to=2026f`, `?since=`) or a
// path (`/tzdb/2026c/changes`): the syntax IANA uses, then one of the releases served. The
// errors name the parameter and the release, in the one error shape.

import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import { badRequest, notFound } from "../pipeline/http-errors.ts";
import { queryParam } from "../params/query.ts";
import type { RouteRequest } from "../contract.ts";

// IANA's spelling: "2019c", and before 1996l a two-digit year ("96k", "93"): all listed in /tzdb.
const RELEASE = /^(?:\d{4}[a-z]{1,2}|\d\d[a-z]?)$/;

/** `text` as a release served, or a 400 (not a release name) / 404 (not served) naming `param`. */
export function servedRelease(history: TzdbHistory, text: string, param: string): string {
  if (!RELEASE.test(text)) {
    throw badRequest("bad_tzdb", `invalid ${param}: a tzdb release is a year and a letter, such as 2019c`);
  }
  if (history.meta(text) === undefined) {
    const gap = history.gaps.includes(text) ? " (a release we have no source for; see /tzdb)" : "";
    throw notFound("unknown_tzdb", `unknown tzdb release ${text} in ${param}${gap}: GET /tzdb lists the releases served`);
  }
  return text;
}

/** A query parameter naming a release; undefined when absent. */
export function releaseParam(request: RouteRequest, param: string): string | undefined {
  const text = queryParam(request.query, param);
  if (text === undefined) return undefined;
  if (text === null || text === "") throw badRequest("bad_tzdb", `invalid ${param}: a tzdb release is a year and a letter, such as 2019c`);
  return servedRelease(request.data.history, text, param);
}
