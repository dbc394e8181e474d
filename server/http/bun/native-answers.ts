// Constant answers that Bun sends from its own router, without entering JavaScript: the
// WorldTimeAPI zone list, the area lists, /openapi.json and the /api index. Bun answers a
// GET of such a route from the Response it was given (Date added, If-None-Match answered
// 304 natively); every other method on the path still reaches the fetch handler, so HEAD,
// OPTIONS and the 405s are answered as before.
//
// Each answer is made once by the fetch handler itself, so its bytes and headers are what
// the handler answers (ETag, CORS, Cache-Control, security headers), then frozen. Bun
// sends such a GET without any per-request work of ours, so:
// - only while there is none to do: with RATE_LIMIT (a list costs tokens by its size, and
//   every limited answer says what is left) or ACCESS_LOG on, nothing is native;
// - it is not counted in /metrics (zonetime_requests_total says so);
// - no `Connection: close` while draining: the service takes the native routes away
//   (server.reload) when the drain begins.
//
// Not native: the spec `/timezone`, which answers `?q=` and `?country=`. Bun's static
// routes match the path alone and ignore the query (a probe: GET /timezone?q=ist got the
// static body), so only paths whose answer no query changes are here.

import type { AppState } from "../contract.ts";
import type { FetchHandler } from "../contract.ts";
import type { BunHandler, RawPathRouting } from "./raw-path-guard.ts";

/** A GET answered by Bun; the other methods go to the fetch handler's route for the path. */
export type NativeRoute = { GET: Response } & Record<"HEAD" | "OPTIONS" | "POST" | "PUT" | "DELETE" | "PATCH", BunHandler>;

/** Headers the handler adds per request, never part of a constant answer. */
const PER_REQUEST_HEADERS = ["date", "ratelimit", "ratelimit-policy", "connection"];

/**
 * Every path whose GET answer is constant for the data being served, and that no query
 * changes (an area list only where the prefix names no zone). nativeAnswers keeps those
 * the handler answers 200.
 */
export function constantPaths(state: AppState): string[] {
  // Not `/timezone/`: the spec list with its query, as `/timezone`.
  const paths = ["/openapi.json", "/api", "/api.txt", "/api/timezone", "/api/timezone.txt", "/api/timezone/"];
  const { zones } = state.data;
  const areas = new Set<string>();
  for (const name of zones.names) {
    for (let slash = name.indexOf("/"); slash > 0; slash = name.indexOf("/", slash + 1)) areas.add(name.slice(0, slash));
  }
  for (const area of areas) {
    if (zones.resolve(area)) continue; // a zone's own name: a time object, never constant
    paths.push(`/timezone/${area}`, `/api/timezone/${area}`, `/api/timezone/${area}.txt`);
  }
  // The website's files stay with the handler: Bun keeps its own copy of each static
  // route's body, and a second copy of the site (14 MB) in every worker measured +14 to
  // +22 MB of RSS per worker, against a memory budget of the bounded caches alone.
  if (state.site === null) paths.push("/");
  return paths;
}

/**
 * The constant answers, made now by `handle` (a fetch handler that counts nothing in
 * /metrics), as Bun's static routes. None with RATE_LIMIT or ACCESS_LOG on.
 */
export async function nativeAnswers(handle: FetchHandler, state: AppState, routing: RawPathRouting): Promise<Record<string, NativeRoute>> {
  const routes: Record<string, NativeRoute> = {};
  if (state.config.accessLog || state.config.rateLimit !== null) return routes;
  const draining = state.draining;
  for (const path of constantPaths(state)) {
    // Made as Bun would route it (`/api.txt` is no route: the raw path guard refuses it).
    const { raw, handler: other } = routing.routeOf(path);
    const made = await handle(new Request(`http://localhost${path}`), null, raw);
    if (made.status !== 200) continue;
    const headers = new Headers(made.headers);
    for (const name of PER_REQUEST_HEADERS) headers.delete(name);
    const frozen = new Response(await made.arrayBuffer(), { status: 200, headers });
    routes[path] = { GET: frozen, HEAD: other, OPTIONS: other, POST: other, PUT: other, DELETE: other, PATCH: other };
  }
  if (draining !== state.draining) return {}; // a drain began meanwhile: nothing native from now on
  return routes;
}
