// How a cacheable answer is made (transitions, zone info, conversions, name lists, the
// /api index): the handler validates its query and names it by a normalised key (what
// the answer depends on, format and profile included); then
//   1. If-None-Match holding the key's ETag -> 304, nothing built (answer-cache.ts);
//   2. the key's encoded body in the answer cache -> answered from it;
//   3. else the body is built once, encoded and kept (within the cache's byte budget).
// The answer's cost (answer-cost.ts) is set on the request either way: 1 for a 304,
// by body size for a 200, so that the same query costs the same cached or not.
//
// A route whose row is `remembered(handler)` also tells, by `holds`, how long its URL names
// the same key: then the same URL again is answered from the cache before the handler
// parses anything (caching/memos.ts, answerKeys).

import { costOfBody } from "../limits/answer-cost.ts";
import type { CachedAnswer } from "./answer-cache.ts";
import type { RouteHandler, RouteRequest } from "../contract.ts";

const encoder = new TextEncoder();
const encoded = (made: string | Blob) => (typeof made === "string" ? encoder.encode(made) : made);

/** How long the request's URL names this answer's key: at any time (the query names it all), or in this unix second only. */
export type Holds = { always: true } | { always: false; second: number };
export const ALWAYS: Holds = Object.freeze({ always: true });

/** `type`: a content type other than the format's (/device.csv). */
export function cacheableAnswer(request: RouteRequest, key: string, maxAge: number, build: () => string | Blob, type?: string, holds?: Holds): Response {
  const { answers } = request.data;
  const cached = answers.get(key);
  // A kept answer carries its ETag: no hash of the key for a repeated query.
  const response = answerOf(request, cached?.etag ?? answers.etagOf(key), maxAge, type, cached, key, build);
  // Remembered only while the cache holds the answer (one too big to keep is built each time anyway).
  if (holds !== undefined && request.url !== null && answers.has(key)) {
    request.data.memos.answerKeys.set(request.url, { key, second: holds.always ? null : holds.second, maxAge, type });
  }
  return response;
}

/** The row's handler, tried after the answer its URL was given last time, if that still holds. */
export function remembered(handle: RouteHandler): RouteHandler {
  return (request, state) => knownAnswer(request) ?? handle(request, state);
}

function knownAnswer(request: RouteRequest): Response | null {
  if (request.url === null) return null;
  const keys = request.data.memos.answerKeys;
  const known = keys.get(request.url);
  if (known === undefined) return null;
  if (known.second !== null && known.second !== request.clock().seconds) {
    keys.stale();
    return null;
  }
  const entry = request.data.answers.get(known.key);
  if (entry === undefined) return null; // dropped from the cache: the handler builds it again
  return answerOf(request, entry.etag, known.maxAge, known.type, entry, known.key, null);
}

/** 304 when If-None-Match holds `etag`, else the entry's body (built and kept when absent); the request's cost set either way. */
function answerOf(request: RouteRequest, etag: string, maxAge: number, type: string | undefined, entry: CachedAnswer | undefined, key: string, build: (() => string | Blob) | null): Response {
  const { responses } = request.data;
  const ifNoneMatch = request.ifNoneMatch();
  // Who may keep it is the route's to say (its row's policy), how long the handler's.
  const cacheControl = request.cache.cacheControl(maxAge);
  if (ifNoneMatch !== null && responses.etagMatches(ifNoneMatch, etag)) {
    request.cost = 1;
    return responses.notModified(etag, request.format, cacheControl, type);
  }
  const answer = entry ?? request.data.answers.put(key, etag, encoded(build!()));
  request.cost = costOfBody(answer.body.size);
  // `type` is part of what the key names, so one entry always has the same.
  return responses.cachedAnswer(answer, request.format, request.head, cacheControl, type);
}
