// How a cacheable answer is made (transitions, zone info, conversions, name lists, the
// /api index): the handler validates its query and names it by a normalised key (what
// the answer depends on, format and profile included); then
//   1. If-None-Match holding the key's ETag -> 304, nothing built (answer-cache.ts);
//   2. the key's encoded body in the answer cache -> answered from it;
//   3. else the body is built once, encoded and kept (within the cache's byte budget).
// The answer's cost (answer-cost.ts) is set on the request either way: 1 for a 304,
// by body size for a 200, so that the same query costs the same cached or not.

import { costOfBody } from "./answer-cost.ts";
import type { RouteRequest } from "./routes.ts";

const encoder = new TextEncoder();

/** `type`: a content type other than the format's (/device.csv). */
export function cacheableAnswer(request: RouteRequest, key: string, maxAge: number, build: () => string, type?: string): Response {
  const { answers, responses } = request.data;
  const cached = answers.get(key);
  // A kept answer carries its ETag: no hash of the key for a repeated query.
  const etag = cached?.etag ?? answers.etagOf(key);
  const ifNoneMatch = request.ifNoneMatch();
  if (ifNoneMatch !== null && responses.etagMatches(ifNoneMatch, etag)) {
    request.cost = 1;
    return responses.notModified(etag, request.format, maxAge, type);
  }
  const entry = cached ?? answers.put(key, etag, encoder.encode(build()));
  request.cost = costOfBody(entry.body.size);
  // `type` is part of what the key names, so one entry always has the same.
  return responses.cachedAnswer(entry, request.format, request.head, maxAge, type);
}
