// /timezone?q=TEXT: the names a word may mean, best first. One index of folded keys
// (server/core/search-fold.ts), sorted by their UTF-8 bytes in names.bin, answers tzdb
// abbreviations in use since 1970 ("IST": Asia/Kolkata, Europe/Dublin, Asia/Jerusalem),
// CLDR's zone and metazone names in every locale ("pacific time", "Mitteleuropäische
// Zeit"), exemplar cities in every locale, and every name's last segment ("calcutta").
// An exact key answers alone; otherwise the keys the query is a prefix of ("kolk"), in
// key order. The query is compared as bytes against the mapped, front-coded keys
// (formats/key-blocks.ts): no key is decoded.

import { searchFold } from "../core/search-fold.ts";
import { NamesSection } from "../formats/names-format.ts";
import { NamesInputError } from "./names-errors.ts";
import type { NamesTable } from "./names-table.ts";

export const MAX_QUERY_LENGTH = 100;
export const MAX_RESULTS = 64;
const encoder = new TextEncoder();

/** Names for a folded query from elsewhere (the places index), asked only when CLDR and tzdb know none. */
export type ExtraSearch = (folded: string) => readonly string[];

export function checkQuery(q: string): void {
  if (q.length === 0) throw new NamesInputError("bad_query", "q must not be empty");
  if (q.length > MAX_QUERY_LENGTH) throw new NamesInputError("bad_query", `q must be at most ${MAX_QUERY_LENGTH} characters`);
  for (let i = 0; i < q.length; i++) {
    const c = q.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) throw new NamesInputError("bad_query", "q must not hold control characters");
  }
}

export function searchZones(names: NamesTable, q: string, extra?: ExtraSearch): string[] {
  checkQuery(q);
  const folded = searchFold(q);
  const out: string[] = [];
  if (folded === "") return out;
  const query = encoder.encode(folded);
  const index = names.searchIndex;
  if (index.find(query, query.length)) {
    // The key equal to the query answers alone; else every key it starts, in key order (their runs are stored in that order).
    const results = names.data.sections[NamesSection.SearchResults]!;
    const end = index.exactEnd > index.loEntry ? index.exactEnd : index.hiEntry;
    for (let r = index.loEntry; r < end && out.length < MAX_RESULTS; r++) {
      const name = names.string(results[r]!);
      if (!out.includes(name)) out.push(name);
    }
  }
  // Only as a fallback: "calcutta" is Asia/Kolkata's link, not also Calcutta, Ohio.
  if (extra !== undefined && out.length === 0) for (const name of extra(folded)) if (out.length < MAX_RESULTS && !out.includes(name)) out.push(name);
  return out;
}

/** /timezone?country=CC: zone.tab's names for the country, sorted; 400 for a code iso3166.tab lacks. */
export function countryZones(names: NamesTable, code: string): string[] {
  const upper = /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : "";
  const zones = upper === "" ? undefined : names.countryZones(upper);
  if (zones === undefined) throw new NamesInputError("unknown_country", "country must be an ISO 3166-1 alpha-2 code that iso3166.tab lists");
  return zones;
}
