// `bun run bench` (places part): how long `bun run build` takes to compile places.bin (into a
// temporary folder), its size, and the median cost of one search in process, answer
// objects included, as a request pays it: typeahead prefixes (every prefix of popular
// names, 1 to 12 characters), whole names, and names within a country; a Map lookup as
// the baseline.

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GEO_FILE } from "../../server/formats/geo-format.ts";
import { PLACES_FILE } from "../../server/formats/places-format.ts";
import { GeoTable } from "../../server/geo/geo-locator.ts";
import { PlaceTable } from "../../server/places/place-table.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { DEFAULT_TZDB_DIR } from "../paths.ts";
import { buildPlaces } from "../places/build-places.ts";
import { median, nsPerOp } from "./timing.ts";

export async function benchPlaces(dataDir: string): Promise<void> {
  const zones = await ZoneTable.load(join(dataDir, "zones.bin"));
  const out = mkdtempSync(join(tmpdir(), "zonetime-bench-places-"));
  const manifest = buildPlaces(out, DEFAULT_TZDB_DIR, GeoTable.load(join(dataDir, GEO_FILE)), new Set(zones.names), new Date().toISOString());
  rmSync(out, { recursive: true, force: true });

  const table = PlaceTable.load(join(dataDir, PLACES_FILE));
  // The 2,000 best-ranked places' names: what people type most.
  const names = Array.from({ length: 2000 }, (_, i) => table.place(i).name);
  const prefixes = names.flatMap((name) => Array.from({ length: Math.min(12, name.length) }, (_, k) => name.slice(0, k + 1).toLowerCase()));
  const countries = Array.from({ length: 2000 }, (_, i) => table.place(i).country);
  const baselineMap = new Map(names.map((n, i) => [n, i]));
  const baseline = nsPerOp(15, 100_000, (i) => baselineMap.get(names[i % names.length]!) ?? 0);
  // Wall time, and this process's CPU time (steadier where neighbours take the cores).
  const time = (label: string, body: (i: number) => number, goal = "") => {
    const ns = nsPerOp(15, 20_000, body);
    const cpu: number[] = [];
    for (let b = 0; b < 9; b++) {
      const start = process.cpuUsage();
      let sink = 0;
      for (let i = 0; i < 20_000; i++) sink += body(i);
      const used = process.cpuUsage(start);
      cpu.push(((used.user + used.system) / 20_000) * (sink === -1 ? 0 : 1));
    }
    console.log(`  ${label.padEnd(44)} ${(ns / 1000).toFixed(2).padStart(6)} us  ${median(cpu).toFixed(2).padStart(6)} us   ${goal}`);
  };
  console.log("places table (GeoNames cities500)");
  console.log(`  build: ${(manifest.buildMs / 1000).toFixed(1)} s; ${manifest.places} places, ${manifest.keys} keys, ` +
    `${manifest.heavyPrefixes} prefixes with precomputed lists`);
  console.log(`  on disk: ${PLACES_FILE} ${statSync(join(dataDir, PLACES_FILE)).size} bytes, mapped read-only`);
  console.log("  search cost (answer objects included), median   wall/call  CPU/call");
  console.log(`  ${"baseline: Map.get of a name".padEnd(44)} ${(baseline / 1000).toFixed(2).padStart(6)} us`);
  time(`typeahead prefixes (${prefixes.length}), limit 10`, (i) => table.searchPlaces(prefixes[i % prefixes.length]!).length, "goal < 5 us");
  time("one-letter prefixes (precomputed lists)", (i) => table.searchPlaces(String.fromCharCode(97 + (i % 26))).length, "goal < 5 us");
  time("whole names, limit 10", (i) => table.searchPlaces(names[i % names.length]!).length, "goal < 5 us");
  time("whole names, limit 1", (i) => table.searchPlaces(names[i % names.length]!, { limit: 1 }).length);
  time("typeahead prefixes, as the route's JSON text", (i) => JSON.stringify(table.searchPlaces(prefixes[i % prefixes.length]!)).length);
  time("whole names within the place's country", (i) => table.searchPlaces(names[i % names.length]!, { country: countries[i % names.length] }).length);
  time("prefixes within the place's country", (i) => {
    const k = i % prefixes.length;
    return table.searchPlaces(prefixes[k]!, { country: countries[Math.floor(k / 12) % countries.length] }).length;
  });
  // Common starts in the countries with the most places: the country's longest runs.
  const within = ["san", "new y", "sa", "s", "la", "st", "ma", "b", "ber", "al", "ko", "ch"].flatMap((q) => ["US", "DE", "FR", "IT", "RU", "MX", "IN", "BR"].map((country) => ({ q, country })));
  time(`common starts in large countries (${within.length})`, (i) => table.searchPlaces(within[i % within.length]!.q, { country: within[i % within.length]!.country }).length);
}

if (import.meta.main) await benchPlaces(process.env.DATA_DIR || "generated");
