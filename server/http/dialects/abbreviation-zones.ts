// An abbreviation as a zone (TimeZoneDB's `zone=CDT`, `from=PST`): the first name, in
// sorted order among the names zone.tab/zone1970.tab give a country, whose abbreviation is
// that one at the instant; else within half a year either side (PST asked in July).
// The places work's abbreviation index (`/timezone?q=`) is meant to replace this scan.

import type { ResolvedName } from "../../tz/zone-table.ts";
import type { ApiData } from "../api-data.ts";

const HALF_YEAR = 183 * 86400;
const ABBREVIATION = /^[A-Za-z]{2,6}$/;

export type AbbreviationLookup = (data: ApiData, abbreviation: string, at: number) => ResolvedName | null;

export const zoneOfAbbreviation: AbbreviationLookup = (data, abbreviation, at) => {
  if (!ABBREVIATION.test(abbreviation)) return null;
  const wanted = abbreviation.toUpperCase();
  const { zones } = data;
  for (const when of [at, at - HALF_YEAR, at + HALF_YEAR]) {
    for (const name of zones.names) {
      if (zones.facts(name) === null) continue;
      const resolved = zones.resolve(name)!;
      if (zones.findPeriod(resolved.zone, when).type.abbr === wanted) return resolved;
    }
  }
  return null;
};
