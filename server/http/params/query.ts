// The query string, read one way for every route and every dialect: as
// application/x-www-form-urlencoded (WHATWG URL, "application/x-www-form-urlencoded
// parsing"), which is what a browser form, URLSearchParams, Python's urlencode and
// `curl --data-urlencode -G` write: `+` is a space, percent-escapes are UTF-8. A broken
// escape is null here, and a 400 naming the parameter for the route that reads it.
//
// `+` meant literally arrives as a space when a client does not escape it
// (`?zones=Etc/GMT+5`, `?at=2026-11-21T10:00:00+01:00`); the parsers that can tell read it
// back (zone-name.ts: no tz name has a space; at-param.ts: no offset starts with one).

import { badRequest } from "../pipeline/http-errors.ts";

/** A query key or value decoded as a form does; null when a percent-escape is broken. */
export function formDecode(text: string): string | null {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/** One parameter's value (its first occurrence), decoded; null: a broken escape; undefined: absent. */
export function queryParam(query: string, name: string): string | null | undefined {
  if (query.length === 0) return undefined;
  // A scan by index: no array of pairs per call (a route reads several parameters per request).
  const n = query.length;
  const k = name.length;
  let at = 0;
  while (at <= n) {
    let end = query.indexOf("&", at);
    if (end < 0) end = n;
    if (query.startsWith(name, at)) {
      const after = at + k;
      if (after === end) return "";
      if (query.charCodeAt(after) === 61 /* = */) return formDecode(query.slice(after + 1, end));
    }
    at = end + 1;
  }
  return undefined;
}

/** One parameter's value, decoded, or undefined when absent; a broken escape is a 400 naming it. */
export function queryText(query: string, name: string): string | undefined {
  const value = queryParam(query, name);
  if (value === null) throw badRequest(`bad_${name}`, `invalid ${name}: broken percent-encoding`);
  return value;
}

/** The whole query as a map of decoded values (first occurrence wins); `caseless`: keys lowercased. A pair with a broken key is dropped; a broken value is null. */
export function queryMap(query: string, caseless: boolean): Map<string, string | null> {
  const out = new Map<string, string | null>();
  if (query.length === 0 || query.length > 16384) return out;
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const decodedKey = formDecode(eq >= 0 ? pair.slice(0, eq) : pair);
    if (decodedKey === null) continue;
    const key = caseless ? decodedKey.toLowerCase() : decodedKey;
    if (out.has(key)) continue;
    out.set(key, formDecode(eq >= 0 ? pair.slice(eq + 1) : ""));
  }
  return out;
}
