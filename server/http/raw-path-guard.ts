// Paths refused before routing because Bun would have changed them. Bun builds req.url
// with the URL parser, which resolves dot segments (`.`, `..`, and `%2e` in either case)
// before our code sees the path, so `/api/../timezone/UTC` would arrive as
// `/timezone/UTC` (losing the /api profile) and `/timezone/%2e%2e` as `/` (the home
// page). Bun 1.4 gives no access to the request-target as sent, but its router (the
// `routes` of Bun.serve) matches that raw target, segment by segment, before the parser
// runs. So every raw spelling of a dot segment becomes a route here, at every depth up to
// MAX_SEGMENTS, and so does an empty segment (which a following `..` would remove), and
// any path deeper than MAX_SEGMENTS (no route of ours is that deep): each answers the
// JSON 404. A path without them reaches the fetch handler exactly as it was sent.
//
// These are uWS routes, matched in native code with the rest of Bun's routing: nothing
// runs per request in JavaScript for a path that has none of them.
//
// Not covered: a backslash, which the parser reads as `/`; the router sees it inside one
// segment. (Bun proposes matching routes on the parsed path instead, oven-sh/bun#42724;
// test/http/raw-path.test.ts fails if an upgrade does that.)

/** More segments than any route has: `/api/timezone/America/Argentina/Buenos_Aires/...` has 6. */
export const MAX_SEGMENTS = 8;

/** `.` and `..` as the URL parser recognises them: `%2e` for any dot, in either case. */
const DOT_SEGMENTS = [".", "%2e", "%2E", "..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2e%2E", "%2E%2e", "%2E%2E"];

/** The route patterns (Bun.serve `routes` syntax) of every raw path refused. */
export function refusedPathPatterns(): string[] {
  const patterns: string[] = [];
  let before = ""; // `/:s0/:s1...`: any non-empty segments
  for (let depth = 0; depth < MAX_SEGMENTS; depth++) {
    for (const dot of DOT_SEGMENTS) patterns.push(`${before}/${dot}`, `${before}/${dot}/*`);
    patterns.push(`${before}//*`); // an empty segment that is not the last (a trailing slash is fine)
    before += `/:s${depth}`;
  }
  patterns.push(`${before}/*`); // deeper than MAX_SEGMENTS
  return patterns;
}
