// `?lang=` on the spec profile's time objects and /info: the CLDR locale it names
// (names/locale-tag.ts: a malformed tag or a language CLDR lacks is a 400), and the
// `timezone_name` key it adds after a time object's other keys. Without `lang` nothing is
// added, so the bytes stay exactly as before; the /api (WorldTimeAPI) profile ignores
// `lang` and never changes.

import { resolveLocale } from "../../names/locale-tag.ts";
import type { Locale } from "../../names/names-table.ts";
import type { ResolvedName } from "../../tz/zone-table.ts";
import { badRequest } from "../pipeline/http-errors.ts";
import { queryParam } from "./query.ts";
import type { RouteRequest } from "../contract.ts";

/** The locale `?lang=` asks for; null when there is none or the profile takes none. */
export function langParam(request: RouteRequest): Locale | null {
  if (request.profile !== "spec" || request.query.length === 0) return null;
  const tag = queryParam(request.query, "lang");
  if (tag === undefined) return null;
  if (tag === null) throw badRequest("bad_lang", "invalid lang: broken percent-encoding");
  return resolveLocale(request.data.names, tag);
}

const encoder = new TextEncoder();

/** A rendered time object with `timezone_name` last: the long name in force at `seconds`. */
export function withTimezoneName(request: RouteRequest, body: Uint8Array, name: ResolvedName, seconds: number): Uint8Array {
  if (request.profile !== "spec" || request.query.length === 0) return body;
  // Most queries name no language (`?at=`, `/clock`'s `?zones=`): one scan of the query, no
  // key made, no miss counted (a /clock of three zones made three keys and three misses).
  if (queryParam(request.query, "lang") === undefined) return body;
  // The same query for the same zone in the same second: the same tail. The name in force
  // changes only at a clock or metazone change, never inside a second, so a clock polling
  // one zone in one language resolves the locale and names the zone once a second.
  const tails = request.data.memos.timezoneNames;
  const key = `${name.name}\n${request.format}\n${request.query}`;
  const kept = tails.get(key);
  let tail = kept !== undefined && kept.second === seconds ? kept.bytes : undefined;
  if (kept !== undefined && tail === undefined) tails.stale();
  if (tail === undefined) {
    const locale = langParam(request);
    if (locale === null) return body;
    const long = request.data.namer.longNameAt(name.name, seconds, locale, "specific")!;
    // JSON: the closing brace is the last byte; text: one more `key: value` line.
    tail = encoder.encode(request.format === "json" ? `,"timezone_name":${JSON.stringify(long)}}` : `timezone_name: ${long}\n`);
    tails.set(key, { second: seconds, bytes: tail });
  }
  const keep = request.format === "json" ? body.length - 1 : body.length;
  const out = new Uint8Array(keep + tail.length);
  // The whole body, then the tail over its closing brace (no subarray: a view costs more than the copy).
  out.set(body);
  out.set(tail, keep);
  return out;
}
