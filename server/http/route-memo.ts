// What a request URL routes to, remembered: its target (path and query) and its route
// match are pure functions of the URL and the static route table, and clients ask the
// same few URLs again and again (a clock polls its zone every minute). A repeated URL
// then costs one Map lookup instead of a parse of the target and a walk of the route
// rows: about 0.4 us of the 2 us the handler spends on /timezone/Europe/London
// (`bun scripts/bench/handler-cpu.ts`).
//
// Bounded by entries and by URL length, so URLs chosen to be unique cost at most a miss
// each and a clear every MAX_ENTRIES of them, never memory: MAX_ENTRIES URLs of at most
// MAX_URL_LENGTH characters, their slices and match objects (2.7 MB of heap when full of
// 256-character URLs, measured).
// Nothing data-dependent is kept (a zone is resolved per request), so a reload of the
// tables needs no invalidation.

import { rootApiMatch } from "./dialects/timezonedb/v1-root.ts";
import { requestTarget, type RequestTarget } from "./request-target.ts";
import { matchRoute, type RouteMatch } from "./routes.ts";

export interface RoutedTarget {
  target: RequestTarget;
  match: RouteMatch;
}

const MAX_ENTRIES = 4096;
/** Longer URLs are routed each time: no key of ours is a client's 8 KB of text. */
const MAX_URL_LENGTH = 256;

export class RouteMemo {
  private readonly entries = new Map<string, RoutedTarget>();

  /** `url`: req.url as Bun gives it. The answer is shared between requests: never change it. */
  route(url: string): RoutedTarget {
    const known = this.entries.get(url);
    if (known !== undefined) return known;
    const target = requestTarget(url);
    // The root is the website's, but for TimeZoneDB v1's API requests (`/?key=&zone=&format=json`).
    const match = rootApiMatch(target.path, target.query) ?? matchRoute(target.path);
    Object.freeze(match.params);
    const routed: RoutedTarget = Object.freeze({ target: Object.freeze(target), match: Object.freeze(match) });
    if (url.length <= MAX_URL_LENGTH) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(url, routed);
    }
    return routed;
  }

  get size(): number {
    return this.entries.size;
  }
}
