// What the site may read, published by the build into generated/site-data/: the
// manifest (data versions and sources), the OpenAPI document, the served names, example
// responses produced by the real runtime for fixed instants, and each name's next clock
// changes (for the timezone browser), each zone's page data (zone-pages-data.ts), the tzdb
// releases' pages and each name's history of releases (release-pages-data.ts) and the
// world map of the zones (zone-map.ts). The site never
// imports server internals.

import { mkdirSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { buildTimeObject, timeObjectJson, timeObjectText } from "../../server/time-object/time-object.ts";
import { ZONES_FILE } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { clockChanges } from "../../server/tz/zone-transitions.ts";
import { formatOffset } from "../../server/core/time-format.ts";
import { ROOT } from "../paths.ts";
import { writeAtomically } from "../write-atomically.ts";
import { zonePagesData } from "./zone-pages-data.ts";
import { publishZoneMap } from "./publish-zone-map.ts";
import { apiExamples } from "./api-examples.ts";
import { releasePagesData } from "./release-pages-data.ts";

export const SITE_DATA_DIR = "site-data";
export const OPENAPI_SOURCE = join(ROOT, "server", "http", "openapi.json");

/** Instants the docs show: the capture date of the WorldTimeAPI sample, and 2026-11-21. */
const EXAMPLES: { name: string; at: number; profile: "spec" | "wta"; format: "json" | "text" }[] = [
  { name: "Europe/London", at: 1759315363, profile: "spec", format: "json" },
  { name: "America/Havana", at: 1795219200, profile: "spec", format: "json" },
  { name: "Europe/London", at: 1759315363, profile: "wta", format: "json" },
  { name: "Asia/Kathmandu", at: 1795219200, profile: "spec", format: "text" },
];

export async function publishSiteData(dataDir: string): Promise<void> {
  const out = join(dataDir, SITE_DATA_DIR);
  mkdirSync(out, { recursive: true });
  copyFileSync(join(dataDir, "manifest.json"), join(out, "manifest.json"));
  copyFileSync(OPENAPI_SOURCE, join(out, "openapi.json"));
  const zones = await ZoneTable.load(join(dataDir, ZONES_FILE));
  writeAtomically(join(out, "names.json"), JSON.stringify(zones.names));
  const examples = EXAMPLES.map((e) => {
    const object = buildTimeObject(zones, zones.resolve(e.name)!, { seconds: e.at, micros: 821684 }, "203.0.113.7", e.profile);
    const prefix = e.profile === "wta" ? "/api" : "";
    return {
      request: `${prefix}/timezone/${e.name}${e.format === "text" ? ".txt" : ""}?at=${e.at}.821684`,
      body: e.format === "json" ? JSON.stringify(JSON.parse(timeObjectJson(object)), null, 2) : timeObjectText(object, e.profile),
    };
  });
  writeAtomically(join(out, "examples.json"), JSON.stringify(examples, null, 2));
  writeAtomically(join(out, "api-examples.json"), JSON.stringify(await apiExamples(dataDir), null, 2));
  writeAtomically(join(out, "next-changes.json"), JSON.stringify(nextChanges(zones, Math.floor(Date.now() / 1000))));
  writeAtomically(join(out, "zone-pages.json"), JSON.stringify(zonePagesData(zones, Math.floor(Date.now() / 1000))));
  writeAtomically(join(out, "release-pages.json"), JSON.stringify(releasePagesData(dataDir)));
  await publishZoneMap(dataDir, out);
}

/** Clock changes a page may show as "next": two years from the build, at most four per name (the page picks the first still ahead). */
const NEXT_CHANGES_YEARS = 2;

type NextChange = { unixtime: number; utc_offset: string; abbreviation: string; dst: boolean; utc_offset_before: string };

function nextChanges(zones: ZoneTable, from: number): Record<string, NextChange[]> {
  const out: Record<string, NextChange[]> = {};
  for (const name of zones.names) {
    const zone = zones.resolve(name)!.zone;
    out[name] = clockChanges(zones, zone, from, from + NEXT_CHANGES_YEARS * 366 * 86400, 4).changes
      // The offset before too: the page says the change in the words of the wall clock (01:00 -> 02:00).
      .map((c) => ({ unixtime: c.at, utc_offset: formatOffset(c.after.utoff), abbreviation: c.after.abbr, dst: c.after.isdst, utc_offset_before: formatOffset(c.before.utoff) }));
  }
  return out;
}
