// Which cached answer a request URL was given (cacheable-answer.ts). A cacheable route
// validates its query and names the answer by a normalised key; the same URL again would
// validate and name the same, so the URL is remembered with the key, and a repeated query
// costs two Map lookups instead of its parsing and validation (/convert: 3.1 -> 1.3 us of
// handler CPU in process, `bun scripts/bench/handler-cpu.ts`).
//
// The same URL names the same answer while the data and, for an answer that depends on the
// time (a window starting now, a zone's state now), the current second are the same. So
// an entry lives in ApiData (a reload starts empty) and holds either for any time or for
// one second only. A refused query is never remembered: it is validated each time.
//
// Bounded by entries and by URL length, as the route memo is (route-memo.ts): at most
// MAX_ENTRIES URLs of MAX_URL_LENGTH characters and their keys (1.8 MB of heap when full,
// measured).
// The answer itself stays in the answer cache's byte budget: an entry that cache dropped
// is a miss here.

export interface KnownRequest {
  /** The answer cache's key of the answer. */
  key: string;
  /** The unix second the answer was named for, or null: the same at any time. */
  second: number | null;
  maxAge: number;
  /** The answer's content type when it is not the format's (cacheable-answer.ts). */
  type: string | undefined;
}

const MAX_ENTRIES = 4096;
const MAX_URL_LENGTH = 256;

export class KnownRequests {
  private readonly entries = new Map<string, KnownRequest>();

  /** What `url` was answered with (the caller checks `second`). */
  recall(url: string): KnownRequest | undefined {
    return this.entries.get(url);
  }

  remember(url: string, known: KnownRequest): void {
    if (url.length > MAX_URL_LENGTH) return;
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(url)) this.entries.clear();
    this.entries.set(url, known);
  }

  get size(): number {
    return this.entries.size;
  }
}
