// The path as sent decides the route. Bun builds req.url with the URL parser, which
// resolves dot segments (`.`, `..`, `%2e` in either case) and reads `\` as `/` before our
// code sees the path: `/api/../timezone/UTC` would arrive as `/timezone/UTC` (losing the
// /api profile), `/timezone/%2e%2e` as `/` (the home page). Bun 1.4 gives no access to the
// request-target as sent, but its router (the `routes` of Bun.serve) matches that raw
// target, segment by segment, before the parser runs. So this module registers, as routes:
//
// - every raw spelling of a dot segment, at every depth up to MAX_SEGMENTS; an empty
//   segment (which a following `..` would remove); any path deeper than MAX_SEGMENTS (no
//   route of ours is that deep): each is refused with the JSON 404;
// - each route's first segment as sent (`/timezone`, `/api/timezone`, `/health`, `/api`):
//   the fetch handler checks that the parsed path matched a route of that same family
//   (RouteMatch.family), so a backslash (`/api\..\timezone\UTC`) cannot move a request to
//   another route or profile either. Everything else reaches fetch with family "".
//
// These are uWS routes, matched in native code with the rest of Bun's routing: a path
// without dot segments costs one comparison of two strings in JavaScript (server CPU per
// request under wrk, with and without these routes: the same within the noise).
//
// Still read as the parser reads it: a backslash inside one route's own parameter
// (`/timezone/Europe\London` is Europe/London). Bun proposes matching routes on the parsed
// path instead (oven-sh/bun#42724); test/http/raw-path.test.ts fails if an upgrade does that.

import type { Server } from "bun";
import type { FetchHandler, RawPath } from "../contract.ts";
import { API_PREFIX, ROUTE_TABLE } from "../routing/route-table.ts";
import { firstSegment } from "../routing/match-route.ts";

/** More segments than any route has: `/api/timezone/America/Argentina/Buenos_Aires/` has 6. */
export const MAX_SEGMENTS = 8;

/** `.` and `..` as the URL parser recognises them: `%2e` for any dot, in either case. */
const DOT_SEGMENTS = [".", "%2e", "%2E", "..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2e%2E", "%2E%2e", "%2E%2E"];

/** `.txt` in every letter case, as routing/match-route.ts accepts it. */
const TXT = ["txt", "txT", "tXt", "tXT", "Txt", "TxT", "TXt", "TXT"].map((t) => `.${t}`);

/** Every spelling of `word` in upper and lower case letters: "api" -> api, apI, aPi, ..., API. */
function letterCases(word: string): string[] {
  return [...word].reduce<string[]>((out, c) => out.flatMap((s) => [...new Set([s + c.toLowerCase(), s + c.toUpperCase()])]), [""]);
}
export const REFUSED: RawPath = Object.freeze({ refused: true });
/** A path under no route's family: the fetch fallback's. */
const FALLBACK: RawPath = Object.freeze({ refused: false, family: "" });

/** Patterns under `prefix` (`k` segments) that are refused: dot and empty segments, too many segments. */
function refusalsUnder(prefix: string, k: number): string[] {
  const patterns: string[] = [];
  let before = prefix;
  for (let depth = k; depth < MAX_SEGMENTS; depth++) {
    for (const dot of DOT_SEGMENTS) patterns.push(`${before}/${dot}`, `${before}/${dot}/*`);
    patterns.push(`${before}//*`); // an empty segment that is not the last (a trailing slash is fine)
    before += `/:s${depth}`;
  }
  patterns.push(`${before}/*`);
  return patterns;
}

/** Every raw pattern and what it tells the handler (`family` "" is the fetch fallback's, not a route). */
export function rawPathPatterns(): Map<string, RawPath> {
  const families = new Map<string, { deeper: boolean; text: boolean }>();
  const add = (family: string, deeper: boolean, text: boolean) => {
    const known = families.get(family) ?? { deeper: false, text: false };
    families.set(family, { deeper: known.deeper || deeper, text: known.text || text });
  };
  add(API_PREFIX, true, false); // an unknown /api path
  for (const row of ROUTE_TABLE) {
    const first = firstSegment(row.pattern);
    const api = row.on === "api"; // names below it, a trailing slash, a .txt form, and the /api profile
    // A row only under /api (its index and WorldTimeAPI's short form) has no root family.
    if (row.only !== "wta") add(first, api || row.pattern.length > first.length, api);
    if (api) add(`${API_PREFIX}${first}`, true, true);
  }
  const patterns = new Map<string, RawPath>();
  for (const pattern of refusalsUnder("", 0)) patterns.set(pattern, REFUSED);
  // `/API/...`, `/Api/...`: timeapi.io's caseless rows take its prefix in any case too (routes.ts).
  const api: RawPath = Object.freeze({ refused: false, family: API_PREFIX });
  for (const variant of letterCases(API_PREFIX.slice(1))) if (variant !== API_PREFIX.slice(1)) patterns.set(`/${variant}/*`, api);
  for (const [family, { deeper, text }] of families) {
    const path: RawPath = Object.freeze({ refused: false, family });
    patterns.set(family, path);
    if (text) for (const txt of TXT) patterns.set(`${family}${txt}`, path);
    if (!deeper) {
      patterns.set(`${family}/`, path); // one trailing slash, as every route takes (`/sync/`)
      continue;
    }
    patterns.set(`${family}/*`, path);
    for (const pattern of refusalsUnder(family, family.split("/").length - 1)) patterns.set(pattern, REFUSED);
  }
  return patterns;
}

export type BunHandler = (req: Request, server: Server<unknown>) => Response | Promise<Response>;

/** What Bun's router would tell the handler for a plain `path` (no dot or empty segment): its exact pattern, else the nearest `prefix/*`. */
function rawPathOf(patterns: Map<string, RawPath>, path: string): RawPath {
  const exact = patterns.get(path);
  if (exact !== undefined) return exact;
  for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
    const under = patterns.get(`${path.slice(0, slash)}/*`);
    if (under !== undefined) return under;
  }
  return FALLBACK;
}

/**
 * A refused spelling's route: GET and HEAD only. Any other method answers the same through
 * the family's route or fetch (405, or OPTIONS's preflight, whatever the path: 160 methods
 * and paths compared), and a route for every method cost Bun 8 KB where these two cost 0.9:
 * with 4,300 such patterns, 16 MB of each worker's RSS (issue 31).
 */
export type RefusedRoute = { GET: BunHandler; HEAD: BunHandler };

export interface RawPathRouting {
  routes: Record<string, BunHandler | RefusedRoute>;
  fetch: BunHandler;
  /** The route Bun takes for a plain path, and what the handler is told of it. */
  routeOf(path: string): { raw: RawPath; handler: BunHandler };
}

/** Bun.serve's `routes` and `fetch` for `handle`: one closure per family. */
export function rawPathRouting(handle: FetchHandler): RawPathRouting {
  const closures = new Map<RawPath, BunHandler>();
  const closure = (raw: RawPath) => {
    let made = closures.get(raw);
    if (made === undefined) closures.set(raw, (made = (req, server) => handle(req, server, raw)));
    return made;
  };
  const patterns = rawPathPatterns();
  const refused: RefusedRoute = { GET: closure(REFUSED), HEAD: closure(REFUSED) };
  const routes: Record<string, BunHandler | RefusedRoute> = {};
  for (const [pattern, raw] of patterns) routes[pattern] = raw === REFUSED ? refused : closure(raw);
  return {
    routes,
    fetch: closure(FALLBACK),
    routeOf(path) {
      const raw = rawPathOf(patterns, path);
      return { raw, handler: closure(raw) };
    },
  };
}
