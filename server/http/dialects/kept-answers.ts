// A dialect's answer to a URL, kept while it holds. TimeZoneDB's and Google's answers are
// functions of the URL, the data and the instant they are about: Google's query always
// names its instant (`timestamp` is required); TimeZoneDB's names it with `time=`, else
// the answer is about the current second (its `timestamp` and `formatted` are in seconds).
// So the same URL again, within the data version and (for "now") the same second, is
// answered from the kept bytes before its query is parsed again: the same saving
// known-requests.ts makes for the service's own cacheable routes.
//
// Google reads Accept-Language when the query names no language: such an answer is kept
// with the header's languages in order of preference (what the answer depends on, at most
// 64 characters, else the answer is not kept) and recalled only for a request whose header
// names the same (accept-language.ts).
// Only answers are kept, never refusals: a refused query is validated each time.
//
// Entries live in ApiData (a reload starts empty). Bounded by bytes: an answer over
// MAX_BODY_BYTES is not kept (TimeZoneDB's whole zone list), nor a URL over
// MAX_URL_LENGTH, and the whole is cleared when it would pass BUDGET_BYTES, each entry
// counted with what its objects take beside its text (ENTRY_OVERHEAD, measured).

import type { Holds } from "../cacheable-answer.ts";
import type { RouteHandler, RouteRequest } from "../routes.ts";
import { acceptLanguageKey } from "./accept-language.ts";

/** A get-time-zone answer is about 450 bytes; a by=city page of ten places about 3 KB. */
const MAX_BODY_BYTES = 4096;
const MAX_URL_LENGTH = 256;
/** What the kept answers may take in all (text counted at two bytes a character). */
const BUDGET_BYTES = 2 * 1024 * 1024;
/** An entry's Blob, record and Map slot: 12,500 entries of 28-byte bodies took 7 MB of heap, about 560 bytes each. */
const ENTRY_OVERHEAD = 560;

interface KeptAnswer {
  body: Blob;
  type: string;
  /** The unix second the answer is about, or null: the query named its instant. */
  second: number | null;
  /** Accept-Language's languages, in order, the answer was made for ("" for none); undefined: it did not read the header. */
  acceptLanguage: string | undefined;
  bytes: number;
}

export class KeptDialectAnswers {
  private readonly entries = new Map<string, KeptAnswer>();
  private used = 0;

  recall(url: string): KeptAnswer | undefined {
    return this.entries.get(url);
  }

  keep(url: string, answer: Omit<KeptAnswer, "bytes">): void {
    if (url.length > MAX_URL_LENGTH || answer.body.size > MAX_BODY_BYTES) return;
    const bytes = answer.body.size + 2 * (url.length + (answer.acceptLanguage?.length ?? 0)) + ENTRY_OVERHEAD;
    const before = this.entries.get(url);
    if (before !== undefined) this.used -= before.bytes;
    if (this.used + bytes > BUDGET_BYTES) {
      this.entries.clear();
      this.used = 0;
    }
    this.entries.set(url, { ...answer, bytes });
    this.used += bytes;
  }

  /** Bytes held (bodies, and URLs at two bytes a character). */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The row's handler, after the answer its URL was given last time, if that still holds. */
export function keptFirst(handle: RouteHandler): RouteHandler {
  return (request, state) => recalled(request) ?? handle(request, state);
}

function recalled(request: RouteRequest): Response | null {
  if (request.url === null) return null;
  const kept = request.data.dialectAnswers.recall(request.url);
  if (kept === undefined) return null;
  if (kept.second !== null && kept.second !== request.clock().seconds) return null;
  if (kept.acceptLanguage !== undefined && kept.acceptLanguage !== acceptLanguageKey(request.header("accept-language"))) return null;
  return request.data.responses.dialect(kept.body, kept.type, 200, request.head);
}

/**
 * A dialect's answer (HTTP 200, its own headers only), kept for the request's URL while
 * `holds`; `byAcceptLanguage`: the answer depends on Accept-Language's languages.
 */
export function keptAnswer(request: RouteRequest, body: string, type: string, holds: Holds, byAcceptLanguage = false): Response {
  const blob = new Blob([body]);
  if (request.url !== null) {
    const acceptLanguage = byAcceptLanguage ? acceptLanguageKey(request.header("accept-language")) : undefined;
    // A header too long to key by: answered, not kept.
    if (acceptLanguage !== null) request.data.dialectAnswers.keep(request.url, { body: blob, type, second: holds.always ? null : holds.second, acceptLanguage });
  }
  return request.data.responses.dialect(blob, type, 200, request.head);
}
