// A dialect's answer to a URL, kept while it holds. TimeZoneDB's and Google's answers are
// functions of the URL, the data and the instant they are about: Google's query always
// names its instant (`timestamp` is required); TimeZoneDB's names it with `time=`, else
// the answer is about the current second (its `timestamp` and `formatted` are in seconds).
// So the same URL again, within the data version and (for "now") the same second, is
// answered from the kept bytes before its query is parsed again, as cacheable-answer.ts
// does for the service's own cacheable routes.
//
// Google reads Accept-Language when the query names no language: such an answer is kept
// with the header's languages in order of preference (what the answer depends on, at most
// 64 characters, else the answer is not kept) and recalled only for a request whose header
// names the same (accept-language.ts).
// Only answers are kept, never refusals: a refused query is validated each time. The store
// is ApiData's memos.dialectAnswers (caching/memos.ts: bounded by entries and bytes); an
// answer over MAX_BODY_BYTES (TimeZoneDB's whole zone list) is not kept.

import type { Holds } from "../caching/cacheable-answer.ts";
import type { RouteHandler, RouteRequest } from "../contract.ts";
import { acceptLanguageKey } from "./accept-language.ts";
import { ACCEPT_LANGUAGE, LIVE } from "../caching/cache-policy.ts";

/** A get-time-zone answer is about 450 bytes; a by=city page of ten places about 3 KB. */
export const MAX_BODY_BYTES = 4096;

/** The row's handler, after the answer its URL was given last time, if that still holds. */
export function keptFirst(handle: RouteHandler): RouteHandler {
  return (request, state) => recalled(request) ?? handle(request, state);
}

function recalled(request: RouteRequest): Response | null {
  if (request.url === null) return null;
  const memo = request.data.memos.dialectAnswers;
  const kept = memo.get(request.url);
  if (kept === undefined) return null;
  if ((kept.second !== null && kept.second !== request.clock().seconds) ||
    (kept.acceptLanguage !== undefined && kept.acceptLanguage !== acceptLanguageKey(request.header("accept-language")))) {
    memo.stale();
    return null;
  }
  return request.data.responses.keptDialect(kept.body, kept.headers);
}

/**
 * A dialect's answer (HTTP 200, its own headers only), kept for the request's URL while
 * `holds`; `byAcceptLanguage`: the answer depends on Accept-Language's languages.
 */
export function keptAnswer(request: RouteRequest, body: string, type: string, holds: Holds, byAcceptLanguage = false): Response {
  const blob = new Blob([body]);
  const headers = headersOf(request, type, holds.always, byAcceptLanguage);
  if (request.url !== null) {
    const acceptLanguage = byAcceptLanguage ? acceptLanguageKey(request.header("accept-language")) : undefined;
    // A header too long to key by: answered, not kept.
    if (acceptLanguage !== null && blob.size <= MAX_BODY_BYTES) request.data.memos.dialectAnswers.set(request.url, { body: blob, headers, second: holds.always ? null : holds.second, acceptLanguage });
  }
  return request.data.responses.keptDialect(blob, headers);
}

/** How long a shared cache may keep it is the row's policy's to say (caching/cache-policy.ts): a day for an answer about a named instant. */
const NAMED_INSTANT_MAX_AGE = 86400;

/** The answer's headers: the same for every request of its URL (the row's policy, whether it names its instant, reads Accept-Language). */
function headersOf(request: RouteRequest, type: string, namedInstant: boolean, byAcceptLanguage: boolean): Headers {
  // Chosen by Accept-Language under a policy that does not vary by it, the answer would be
  // wrong for the next client with another language: no cache may keep it then.
  const policy = byAcceptLanguage && request.cache.vary !== ACCEPT_LANGUAGE ? LIVE : request.cache;
  const cacheControl = policy.cacheControl(namedInstant ? NAMED_INSTANT_MAX_AGE : 0);
  return request.data.responses.dialectHeaders(type, cacheControl, byAcceptLanguage ? ACCEPT_LANGUAGE : undefined);
}
