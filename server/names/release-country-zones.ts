// `/timezone?country=CC&tzdb=R`: the default list's semantics (names/zone-search.ts,
// countryZones) applied to release R's own zone.tab and iso3166.tab, kept in the history
// file: the names that release's zone.tab gave the country, sorted; 400 for a code its
// iso3166.tab lacks; 404 for a release that had no such tables.

import { ZonetimeError } from "../core/errors.ts";
import type { TzdbHistory } from "../tz/tzdb-history.ts";
import { NamesInputError } from "./names-errors.ts";

export function releaseCountryZones(history: TzdbHistory, release: string, code: string): string[] {
  const upper = /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : "";
  const zones = upper === "" ? undefined : history.countryZones(release, upper);
  if (zones === null) throw new ZonetimeError("no_country_table", 404, `tzdb ${release} has no zone.tab and iso3166.tab: no country lists in that release`);
  if (zones === undefined) throw new NamesInputError("unknown_country", `country must be an ISO 3166-1 alpha-2 code that tzdb ${release}'s iso3166.tab lists`);
  return zones;
}
