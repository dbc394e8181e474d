// `?tzdb=RELEASE` on a route that answers from tz rules: the same handler, given the same
// data but the zone table of that release (its names, its links, its rules), its own
// renderer, answer cache and ETags, and X-Tzdb-Version naming it. The default release is
// the route's ordinary answer. A name the release lacks is 404 naming the release.

import { HttpError, notFound } from "../http-errors.ts";
import type { ApiData } from "../api-data.ts";
import type { RouteHandler, RouteRequest } from "../routes.ts";
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

export function withTzdb(handle: RouteHandler): RouteHandler {
  return (request, state) => {
    const release = releaseParam(request, "tzdb");
    if (release === undefined || release === request.data.history.defaultRelease) return handle(request, state);
    // The request seen through a new object with its own `data`: the pipeline's request is a
    // class whose getters (clientAddress) read its own fields, which a spread would lose.
    const inRelease: RouteRequest = Object.create(request, { data: { value: dataOfRelease(request.data, release), writable: true } });
    try {
      return handle(inRelease, state);
    } catch (error) {
      if (error instanceof HttpError && error.code === "unknown_location") {
        throw notFound("unknown_location", `unknown location in tzdb ${release}`);
      }
      throw error;
    } finally {
      request.cost = inRelease.cost; // the handler charged the copy
    }
  };
}
