// What a cache may do with an answer: each row of the route table names one of these
// policies (routing/route-table.ts, `cache`), and every Cache-Control an API answer carries
// is written here from it (docs/shared-caches.md has the table, checked against the rows by
// test/http/cache-policy.test.ts). A handler says only how long its answer stays right
// (its max-age: it alone knows the zone's next change); the row says who may keep it.
//
// A shared cache (a CDN, Varnish, nginx's proxy_cache) keeps an answer for every client
// that asks the same URL. So:
// - an answer about now or about the caller's address (a time object: its datetime and its
//   client_ip) is never kept by any cache: `no-store`;
// - an answer right until an instant of the clock (a zone's next change, a window starting
//   now) is kept until then and never served past it: `s-maxage` equal to its max-age and
//   no `stale-while-revalidate` (Varnish would otherwise grant its default grace of 10 s);
// - an answer that depends on the URL and the data release alone may also be served stale
//   for as long again while the cache fetches it anew (`stale-while-revalidate`): it can
//   only be wrong across a tzdb release, and once per URL.
// `Vary` names a request header an answer depends on besides the URL (Google's dialect
// reads Accept-Language when the query names no language).

export interface CachePolicy {
  /** How docs/shared-caches.md names it. */
  readonly name: "live" | "until" | "release" | "live or release";
  /** The request header its answers may vary by (then only those that read it say so), or null. */
  readonly vary: string | null;
  /** Cache-Control for an answer that stays right for `maxAge` seconds. */
  cacheControl(maxAge: number): string;
}

const NO_STORE = "no-store";

/** Cache-Control strings by max-age, made once each (some max-ages follow the clock: a bounded few kept). */
function madeOnce(make: (maxAge: number) => string): (maxAge: number) => string {
  const made = new Map<number, string>();
  return (maxAge) => {
    let text = made.get(maxAge);
    if (text === undefined) {
      text = make(maxAge);
      if (made.size < 1024) made.set(maxAge, text);
    }
    return text;
  };
}

/** About now or the caller's address: no cache keeps it. */
export const LIVE: CachePolicy = { name: "live", vary: null, cacheControl: () => NO_STORE };

/** Right until an instant of the clock: shared caches keep it until then, never longer. */
export const UNTIL: CachePolicy = {
  name: "until",
  vary: null,
  cacheControl: madeOnce((maxAge) => `public, max-age=${maxAge}, s-maxage=${maxAge}`),
};

const releaseCacheControl = madeOnce((maxAge) => `public, max-age=${maxAge}, s-maxage=${maxAge}, stale-while-revalidate=${maxAge}`);

/** A function of the URL and the data release: kept, and served stale while fetched anew. */
export const RELEASE: CachePolicy = { name: "release", vary: null, cacheControl: releaseCacheControl };

/**
 * `/timezone/{name}` (and `/api/timezone/{name}`): a zone's name answers a time object,
 * live (responses.ts makes every time object no-store), and an area's name the list of names
 * under it (`/timezone/America/Argentina`), an answer of the release.
 */
export const LIVE_OR_RELEASE: CachePolicy = { name: "live or release", vary: null, cacheControl: releaseCacheControl };

export const ACCEPT_LANGUAGE = "Accept-Language";

/** As RELEASE, and an answer that read Accept-Language (no language in its query) varies by it. */
export const RELEASE_BY_LANGUAGE: CachePolicy = { name: "release", vary: ACCEPT_LANGUAGE, cacheControl: releaseCacheControl };

/** The website's files (not rows of the table): built with the release, kept as RELEASE answers. */
export const SITE_PAGE = RELEASE.cacheControl(300);
export const SITE_FILE = RELEASE.cacheControl(86400);
/** Astro's hashed assets: a new name for new content. */
export const SITE_ASSET = `${RELEASE.cacheControl(31536000)}, immutable`;

/**
 * The website's Vary. `/` answers the home page or, to a client that refuses HTML, the API's
 * index (pipeline/accepts-html.ts): both vary by Accept. A file with a Brotli or gzip copy
 * varies by Accept-Encoding.
 */
export function siteVary(negotiated: boolean, precompressed: boolean): string | null {
  if (negotiated) return precompressed ? "Accept, Accept-Encoding" : "Accept";
  return precompressed ? "Accept-Encoding" : null;
}
