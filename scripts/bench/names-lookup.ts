// `bun run bench` (names part): what /timezone?q= and ?lang= cost in process, over the
// built names.bin mapped as the server maps it. Medians of repeated batches; a Map lookup
// measured in the same run is the baseline. Goal (issue 19): /timezone?q= under 5 us.

import { join } from "node:path";
import { mapTable } from "../../server/formats/map-table.ts";
import { NAMES_FILE } from "../../server/formats/names-format.ts";
import { ZONES_FILE } from "../../server/formats/zones-format.ts";
import { resolveLocale } from "../../server/names/locale-tag.ts";
import { NamesTable } from "../../server/names/names-table.ts";
import { ZoneNamer } from "../../server/names/zone-namer.ts";
import { searchZones } from "../../server/names/zone-search.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { nsPerOp } from "./timing.ts";

export async function benchNames(dataDir: string): Promise<void> {
  const loadStart = performance.now();
  const names = NamesTable.fromBuffer(mapTable(join(dataDir, NAMES_FILE)), NAMES_FILE);
  const loadMs = performance.now() - loadStart;
  const zones = ZoneTable.fromBuffer(mapTable(join(dataDir, ZONES_FILE)), ZONES_FILE);
  const namer = new ZoneNamer(zones, names);
  const queries = {
    "exact metazone name (pacific time)": ["pacific time", "Pacific Daylight Time", "eastern time", "central european time"],
    "abbreviation (IST, CET, PST, AEST)": ["IST", "CET", "PST", "AEST"],
    "prefix of a city (kolk, new yo, sao)": ["kolk", "new yo", "sao", "buenos"],
    "non-ASCII (Mitteleuropäische Zeit, 東京)": ["Mitteleuropäische Zeit", "東京", "Zürich", "インド標準時"],
    "no match": ["qqqqzzzz", "xylophone", "nothing here", "zzz"],
  };
  const map = new Map(zones.names.map((n, i) => [n.toLowerCase(), i]));
  const lower = zones.names.map((n) => n.toLowerCase());
  const baseline = nsPerOp(15, 200_000, (i) => map.get(lower[i % lower.length]!)!);
  console.log("names (names.bin)");
  console.log(`  load: ${loadMs.toFixed(1)} ms; CLDR ${names.cldrVersion}, ${names.localeCount} locales`);
  console.log("  cost, median ns per call                   ns     x baseline");
  const row = (label: string, ns: number, goal = "") =>
    console.log(`  ${label.padEnd(42)} ${ns.toFixed(0).padStart(6)}  ${(ns / baseline).toFixed(1).padStart(6)}   ${goal}`);
  row("baseline: Map.get of a lowercase name", baseline);
  for (const [label, qs] of Object.entries(queries)) {
    row(`q: ${label}`, nsPerOp(15, 20_000, (i) => searchZones(names, qs[i & 3]!).length), "goal < 5000 ns");
  }
  const now = Date.now() / 1000;
  const someNames = ["Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "Australia/Sydney", "America/Indiana/Knox", "Europe/Dublin", "Pacific/Bougainville", "UTC"];
  const locales = ["de", "ja", "ar-EG", "es-419"].map((t) => resolveLocale(names, t));
  row("lang: resolve a tag (de-AT-1996)", nsPerOp(15, 50_000, () => resolveLocale(names, "de-AT-1996").index));
  row("timezone_name (long, now)", nsPerOp(15, 50_000, (i) => namer.longNameAt(someNames[i & 7]!, now, locales[i & 3]!, "specific")!.length));
  row("generic_long (now)", nsPerOp(15, 50_000, (i) => namer.longNameAt(someNames[i & 7]!, now, locales[i & 3]!, "generic")!.length));
}

if (import.meta.main) await benchNames(process.env.DATA_DIR || "generated");
