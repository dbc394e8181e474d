// The release's country and coordinate tables -> what /timezone/{name}/info says about a
// name: the countries that use it and its principal location. zone1970.tab first (a zone
// with every country that has used it since 1970), then zone.tab (one row per country,
// also for names that are Links in the main data, such as Europe/Vaduz for LI).

import { join } from "node:path";
import type { ZoneFacts } from "../../server/formats/zones-format.ts";

export interface FactsSource {
  /** Name -> its row; a name without one (UTC, a Link with no row) gets its target's. */
  byName: Map<string, ZoneFacts>;
  /** `code\tcountry name` lines, from iso3166.tab. */
  countryNames: string;
}

function rows(text: string): string[][] {
  return text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((l) => l.split("\t"));
}

export function parseZoneFacts(zone1970: string, zoneTab: string, iso3166: string): FactsSource {
  const byName = new Map<string, ZoneFacts>();
  for (const [codes, coordinates, name, comment] of rows(zone1970)) {
    byName.set(name!, { countries: codes!, coordinates: coordinates!, comment: comment ?? "" });
  }
  for (const [code, coordinates, name, comment] of rows(zoneTab)) {
    if (!byName.has(name!)) byName.set(name!, { countries: code!, coordinates: coordinates!, comment: comment ?? "" });
  }
  const countryNames = rows(iso3166).map(([code, name]) => `${code}\t${name}`).join("\n");
  return { byName, countryNames };
}

/** Reads the tables beside tzdata.zi; null when a release folder lacks them (facts then answer null). */
export async function readZoneFacts(tzdbDir: string): Promise<FactsSource | null> {
  const files = ["zone1970.tab", "zone.tab", "iso3166.tab"].map((f) => Bun.file(join(tzdbDir, f)));
  for (const f of files) if (!(await f.exists())) return null;
  const [zone1970, zoneTab, iso3166] = await Promise.all(files.map((f) => f.text()));
  return parseZoneFacts(zone1970!, zoneTab!, iso3166!);
}
