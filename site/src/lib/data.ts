// Build-time access to what `bun run build` published for the site (generated/site-data):
// data versions, the OpenAPI document, the served names, example responses. The build
// passes the folder in ZONETIME_SITE_DATA.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getTimeZones } from "@vvo/tzdb";

const dir = process.env.ZONETIME_SITE_DATA ?? join(process.cwd(), "..", "generated", "site-data");
const read = <T>(name: string): T => JSON.parse(readFileSync(join(dir, name), "utf8")) as T;

export interface Manifest {
  tzdb: { version: string };
  ip: { source: string; version: string; dataDate: string; license: string; credit: { text: string; url: string } };
  geo: { version: string; boundaryRelease: string; license: string; credit: { text: string; url: string } };
  places: { source: string; version: string; dataDate: string; license: string; credit: { text: string; url: string }; places: number };
  builtAt: string;
}

export const manifest = read<Manifest>("manifest.json");
export const openapi = read<any>("openapi.json");
export const names = read<string[]>("names.json");
export const examples = read<{ request: string; body: string }[]>("examples.json");
/** Per operationId, one request and the answer the real handler gave it at build (scripts/site/api-examples.ts). */
export const apiExamples = read<Record<string, { request: string; status: number; contentType: string; answer: string; lines: number; live: string[] | "metric-names" }>>("api-examples.json");

export interface NextChange {
  unixtime: number;
  utc_offset: string;
  abbreviation: string;
  dst: boolean;
  utc_offset_before: string;
}
/** Per name, its clock changes in the two years after the build, earliest first. */
export const nextChanges = read<Record<string, NextChange[]>>("next-changes.json");


// The shape of zone-pages.json as scripts/site/zone-pages-data.ts writes it, restated here:
// site/ reads only what the build publishes, never scripts/ (test/architecture).
export type ChartChange = [at: number, utoff: number, dst: 0 | 1, abbr: number, wall: -1 | 0 | 1];
export interface ZonePageData {
  zone: string;
  links: readonly string[];
  countries: { code: string; name: string }[];
  location: { latitude: number; longitude: number; comment: string } | null;
  posix: string | null;
  posixFrom: number | null;
  from: number;
  to: number;
  abbrs: string[];
  start: [number, 0 | 1, number];
  changes: ChartChange[];
}
/** Per name its zone, and per zone what its page shows (scripts/site/zone-pages-data.ts). */
export const zonePages = read<{ names: Record<string, string>; zones: Record<string, ZonePageData> }>("zone-pages.json");
/** The world map's TopoJSON, as the build compiled it (scripts/site/zone-map.ts). */
export const zoneMapJson = () => readFileSync(join(dir, "zone-map.json"), "utf8");

/**
 * Country and major cities for a name, from @vvo/tzdb (never its offsets: those are a
 * snapshot). @vvo/tzdb groups zones that share offsets and gives the group its main zone's
 * cities; only names on that zone's own clock get them (Europe/Madrid's "Madrid,
 * Barcelona" are not Africa/Ceuta's, New York City is not Indiana's).
 */
const places = new Map<string, { country: string; cities: string[] }>();
for (const zone of getTimeZones({ includeUtc: true })) {
  for (const name of zone.group) {
    const sameClock = zonePages.names[name] !== undefined && zonePages.names[name] === zonePages.names[zone.name];
    places.set(name, { country: zone.countryName, cities: sameClock ? zone.mainCities.slice(0, 3) : [] });
  }
}
export const placeOf = (name: string) => places.get(name) ?? null;
