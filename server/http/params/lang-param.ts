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
import type { TimezoneNameTails } from "../caching/memos.ts";

/** The locale `?lang=` asks for; null when there is none or the profile takes none. */
export function langParam(request: RouteRequest): Locale | null {
  if (request.profile !== "spec" || request.query.length === 0) return null;
  const tag = queryParam(request.query, "lang");
  if (tag === undefined) return null;
  if (tag === null) throw badRequest("bad_lang", "invalid lang: broken percent-encoding");
  return resolveLocale(request.data.names, tag);
}

const encoder = new TextEncoder();

/**
 * False when the query cannot name a language: not the spec profile, or no `lang` in it
 * (a key is never decoded: queryParam). A query that may is looked for in the kept tails
 * before it is read, so a clock polling one URL reads its query once a second.
 */
function mayAskLanguage(request: RouteRequest): boolean {
  return request.profile === "spec" && request.query.includes("lang");
}

/**
 * The `timezone_name` tail of a time object (the renderer writes it over the object's end):
 * the long name in force at `seconds`; null when the query names no language.
 */
export function timezoneNameTail(request: RouteRequest, name: ResolvedName, seconds: number): Uint8Array | null {
  // Most queries name no language (`?at=`, `/clock`'s `?zones=`): nothing more is done.
  if (!mayAskLanguage(request)) return null;
  const kept = keptTails(request, seconds);
  if (kept !== undefined && kept.names.length === 1 && kept.names[0] === name) return kept.tails[0]!;
  return madeTails(request, [name], seconds)?.[0] ?? null;
}

/**
 * The `timezone_name` tails of the time objects of `names` at `seconds`, one per name in
 * order (`/clock`); null when the query names no language or the profile takes none.
 */
export function timezoneNameTails(request: RouteRequest, names: readonly ResolvedName[], seconds: number): readonly Uint8Array[] | null {
  if (!mayAskLanguage(request)) return null;
  const kept = keptTails(request, seconds);
  return kept !== undefined && sameNames(kept.names, names) ? kept.tails : madeTails(request, names, seconds);
}

/**
 * The tails this URL was given in this second, if any. Kept per URL (the string the
 * pipeline routed by, its hash already made): the same URL in the same second names the
 * same zones in the same language, and the name in force changes only at a clock or
 * metazone change, never inside a second. `/ip` without an address is one URL for every
 * caller, so the names kept are checked against those asked for.
 */
function keptTails(request: RouteRequest, seconds: number): TimezoneNameTails | undefined {
  if (request.url === null) return undefined;
  const memo = request.data.memos.timezoneNames;
  const kept = memo.get(request.url);
  if (kept === undefined || kept.second === seconds) return kept;
  memo.stale();
  return undefined;
}

function sameNames(a: readonly ResolvedName[], b: readonly ResolvedName[]): boolean {
  if (a === b) return true; // /clock's list, kept per query (routes/world-clock.ts)
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The tails made afresh (the locale resolved, a bad tag refused), and kept for the URL; null without `?lang=`. */
function madeTails(request: RouteRequest, names: readonly ResolvedName[], seconds: number): readonly Uint8Array[] | null {
  const locale = langParam(request);
  if (locale === null) return null;
  const tails = names.map((name) => {
    const long = request.data.namer.longNameAt(name.name, seconds, locale, "specific")!;
    return encoder.encode(request.format === "json" ? `,"timezone_name":${JSON.stringify(long)}}` : `timezone_name: ${long}\n`);
  });
  if (request.url !== null) request.data.memos.timezoneNames.set(request.url, { second: seconds, names, tails });
  return tails;
}
