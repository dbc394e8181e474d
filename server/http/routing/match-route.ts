// A request path matched against the route table (route-table.ts). Patterns are matched on
// the raw (still percent-encoded) path, so `%2F` in a name is decoded only by the handler
// that expects a name and can never add a segment. A pattern is compiled once into
// literals and parameters; a request costs a few startsWith/indexOf calls, no regex.

import type { Format, Profile } from "../../time-object/time-object.ts";
import type { RouteMatch, RouteRow } from "../contract.ts";
import { API_PREFIX, OTHER_LABEL, ROUTE_LABELS, ROUTE_TABLE, SITE_LABEL } from "./route-table.ts";
import { rootApiMatch } from "../dialects/timezonedb/v1-root.ts";

/** `param` null: a literal; else a parameter (`literal` ""). One shape, so the matcher's reads stay monomorphic. */
interface Token {
  literal: string;
  param: string | null;
  anyText: boolean;
}

interface CompiledRoute {
  row: RouteRow;
  tokens: Token[];
  /** The pattern when it has no parameter: matched by one comparison. */
  exact: string | null;
  label: number;
  /** RouteMatch.family for this row at the root and under /api. */
  family: { spec: string; wta: string };
  caseless: boolean;
}

/**
 * `/timezone` for `/timezone/{name*}`: the row's first segment, as a path; "" when the row
 * has no literal first segment (`/` and `/{name*}`, the /api index and alias rows).
 */
export function firstSegment(pattern: string): string {
  if (pattern === "/" || pattern.charCodeAt(1) === 123 /* { */) return "";
  let end = pattern.length;
  for (const stop of ["/", "{"]) {
    const at = pattern.indexOf(stop, 1);
    if (at > 0 && at < end) end = at;
  }
  return pattern.slice(0, end);
}

function compile(row: RouteRow): CompiledRoute {
  const tokens: Token[] = [];
  let at = 0;
  while (at < row.pattern.length) {
    const open = row.pattern.indexOf("{", at);
    if (open < 0) {
      tokens.push({ literal: row.pattern.slice(at), param: null, anyText: false });
      break;
    }
    if (open > at) tokens.push({ literal: row.pattern.slice(at, open), param: null, anyText: false });
    const close = row.pattern.indexOf("}", open);
    if (close < 0) throw new Error(`route pattern ${row.pattern}: "{" without "}"`);
    const name = row.pattern.slice(open + 1, close);
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last.param !== null) throw new Error(`route pattern ${row.pattern}: two parameters need a literal between them`);
    tokens.push(name.endsWith("*") ? { literal: "", param: name.slice(0, -1), anyText: true } : { literal: "", param: name, anyText: false });
    at = close + 1;
  }
  const only = tokens.length === 1 ? tokens[0]! : null;
  const first = firstSegment(row.pattern);
  return {
    row, tokens, exact: only !== null && only.param === null ? only.literal : null, label: ROUTE_LABELS.indexOf(row.label),
    family: { spec: first, wta: `${API_PREFIX}${first}` },
    caseless: row.caseless === true,
  };
}

const NO_PARAMS: readonly string[] = Object.freeze([]);

/** The parameters of `path` under `route`, or null when it does not match. */
function matchTokens(route: CompiledRoute, path: string, source = path): readonly string[] | null {
  if (route.exact !== null) return path === route.exact ? NO_PARAMS : null;
  const { tokens } = route;
  // Made at the first parameter: most rows tried fail on a literal before it.
  let params: string[] | null = null;
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.param === null) {
      if (!path.startsWith(token.literal, at)) return null;
      at += token.literal.length;
      continue;
    }
    const next = tokens[i + 1];
    let end: number;
    if (next === undefined) end = path.length;
    else if (token.anyText && i + 2 === tokens.length) end = path.endsWith(next.literal) ? path.length - next.literal.length : -1;
    else end = path.indexOf(next.literal, at);
    if (end < at) return null;
    const value = source.slice(at, end);
    if (!token.anyText && (value.length === 0 || value.includes("/"))) return null;
    (params ??= []).push(value);
    at = end;
  }
  return at === path.length ? params ?? NO_PARAMS : null;
}

const COMPILED = ROUTE_TABLE.map(compile);

/**
 * The rows a path can match, by its first segment and profile, in table order: the rows
 * under that segment and those with no literal first segment. One Map lookup instead of
 * trying every row. A row whose first segment runs into a parameter (`/x{y}`) could match
 * a longer segment, and a raw row sees another path, so those are tried for every path.
 * Caseless rows (timeapi.io's) are kept apart, by their first segment in lower case, and
 * tried first: they all come before every other row in the table (checked here).
 */
interface Candidates {
  bySegment: Map<string, CompiledRoute[]>;
  any: CompiledRoute[];
  caselessBySegment: Map<string, CompiledRoute[]>;
}

function candidates(): Record<Profile, Candidates> {
  const firstCased = COMPILED.findIndex((r) => !r.caseless);
  if (firstCased >= 0 && COMPILED.slice(firstCased).some((r) => r.caseless)) throw new Error("route-table.ts: caseless rows must come before every other row");
  const make = (profile: Profile): Candidates => {
    const eligible = COMPILED.filter((r) => !(r.row.on === "raw" && profile === "wta") && !(r.row.only === "wta" && profile !== "wta"));
    const segmentOf = (r: CompiledRoute) => {
      const first = firstSegment(r.row.pattern);
      // A raw row matches the path as sent (`.txt` and a trailing slash kept): tried for every path, by one comparison when exact.
      return first !== "" && r.row.on !== "raw" && r.row.pattern.charCodeAt(first.length) !== 123 /* { */ ? first : "";
    };
    const cased = eligible.filter((r) => !r.caseless);
    const any = cased.filter((r) => segmentOf(r) === "");
    const bySegment = new Map<string, CompiledRoute[]>();
    for (const r of cased) {
      const first = segmentOf(r);
      if (first !== "" && !bySegment.has(first)) bySegment.set(first, cased.filter((o) => segmentOf(o) === first || segmentOf(o) === ""));
    }
    const caselessBySegment = new Map<string, CompiledRoute[]>();
    for (const r of eligible) {
      if (!r.caseless) continue;
      const first = segmentOf(r);
      if (first === "") throw new Error(`route-table.ts: caseless row ${r.row.pattern} needs a literal first segment`);
      caselessBySegment.set(first, [...(caselessBySegment.get(first) ?? []), r]);
    }
    return { bySegment, any, caselessBySegment };
  };
  return { spec: make("spec"), wta: make("wta") };
}
const CANDIDATES = candidates();
const SITE = ROUTE_LABELS.indexOf(SITE_LABEL);
const OTHER = ROUTE_LABELS.indexOf(OTHER_LABEL);
const SLASH = 47;

/** A-Z to a-z, every other character kept: the same length, so offsets in it are offsets in `path`. */
function asciiLower(path: string): string {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c >= 65 && c <= 90) return path.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return path;
}

/** True when `path` ends in `.txt`, any case (char codes: no substring or case-folding allocation on the hot path). */
export function endsWithTxt(path: string): boolean {
  const n = path.length;
  return n > 4 && path.charCodeAt(n - 4) === 46 && (path.charCodeAt(n - 3) | 32) === 116 &&
    (path.charCodeAt(n - 2) | 32) === 120 && (path.charCodeAt(n - 1) | 32) === 116;
}

/** A path refused before routing (raw-path-guard.ts): matched by no row, answered the JSON 404. */
/**
 * A request's route: its path's, but for TimeZoneDB v1's API requests at the root
 * (`/?key=K&zone=...&format=json`), which the website's home page would otherwise answer.
 */
export function matchRequest(path: string, query: string): RouteMatch {
  return rootApiMatch(path, query) ?? matchRoute(path);
}

export const REFUSED_PATH: RouteMatch = Object.freeze({ route: null, params: NO_PARAMS, profile: "spec", format: "json", label: OTHER, api: true, family: "" });

export function matchRoute(rawPath: string): RouteMatch {
  // timeapi.io's paths in any case, its `/api` too (`/API/Time/current/zone`): there only its caseless rows answer.
  if (rawPath.length >= 5 && rawPath.charCodeAt(4) === SLASH && !rawPath.startsWith(API_PREFIX) && rawPath.slice(0, 4).toLowerCase() === API_PREFIX) {
    const folded = matchRoute(API_PREFIX + rawPath.slice(4));
    if (folded.caseless) return folded;
  }
  let path = rawPath;
  let profile: Profile = "spec";
  if (path.startsWith(API_PREFIX) && (path.length === 4 || path.charCodeAt(4) === SLASH || (path.length === 8 && endsWithTxt(path)))) {
    profile = "wta";
    // `/api.txt` is the index as text, as `/api/.txt` is (and `/timezone.txt` is `/timezone`'s).
    path = path.length === 4 ? "/" : path.length === 8 && path.charCodeAt(4) !== SLASH ? `/${path.slice(4)}` : path.slice(4);
  }
  let format: Format = "json";
  if (endsWithTxt(path)) {
    format = "text";
    path = path.slice(0, -4);
  }
  if (path.length > 1 && path.charCodeAt(path.length - 1) === SLASH) path = path.slice(0, -1);
  // Raw rows take one trailing slash too (`/sync/`), as docs/api.md promises of every path.
  const rawPathNoSlash = rawPath.length > 1 && rawPath.charCodeAt(rawPath.length - 1) === SLASH ? rawPath.slice(0, -1) : rawPath;
  const slash = path.indexOf("/", 1);
  const segment = slash < 0 ? path : path.slice(0, slash);
  const table = CANDIDATES[profile];
  if (format === "json" && table.caselessBySegment.size > 0) {
    const caseless = table.caselessBySegment.get(asciiLower(segment));
    if (caseless !== undefined) {
      const lower = asciiLower(path);
      for (let i = 0; i < caseless.length; i++) {
        const route = caseless[i]!;
        // Literals compared in lower case, parameters taken from the path as sent.
        const params = matchTokens(route, lower, path);
        if (params !== null) {
          return { route: route.row, params, profile, format, label: route.label, api: true, family: route.family[profile], caseless: true };
        }
      }
    }
  }
  const rows = table.bySegment.get(segment) ?? table.any;
  for (let i = 0; i < rows.length; i++) {
    const route = rows[i]!;
    const raw = route.row.on === "raw";
    if (format === "text" && route.row.text === false) continue;
    const params = matchTokens(route, raw ? rawPathNoSlash : path);
    if (params !== null) {
      return { route: route.row, params, profile, format: raw ? "json" : format, label: route.label, api: !raw, family: route.family[profile] };
    }
  }
  const wta = profile === "wta";
  return { route: null, params: NO_PARAMS, profile, format, label: wta ? OTHER : SITE, api: wta, family: wta ? API_PREFIX : "" };
}
