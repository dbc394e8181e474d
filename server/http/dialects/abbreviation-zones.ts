// An abbreviation as a zone (TimeZoneDB's `zone=CDT`, `from=PST`): the first zone the
// names work's search gives for it (`/timezone?q=`: tzdb abbreviations since 1970, ranked,
// so CDT is America/Chicago and PST America/Los_Angeles). Only letters, 2 to 6 of them:
// the parameter names an abbreviation, not a city or a CLDR name.

import { searchZones } from "../../names/zone-search.ts";
import type { ResolvedName } from "../../tz/zone-table.ts";
import type { ApiData } from "../pipeline/api-data.ts";

const ABBREVIATION = /^[A-Za-z]{2,6}$/;

export function zoneOfAbbreviation(data: ApiData, abbreviation: string): ResolvedName | null {
  if (!ABBREVIATION.test(abbreviation)) return null;
  const first = searchZones(data.names, abbreviation)[0];
  return first === undefined ? null : data.zones.resolve(first) ?? null;
}
