// `bun run bench` (coordinates part): how long `bun run build` takes to compile geo.bin (into
// a temporary folder), its size, and the median cost of one lookup in process: points
// uniform over the globe's area, around zone1970.tab's locations, and only those that end in
// a border cell (the exact point-in-polygon part), with a Map lookup as the baseline.

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GEO_FILE } from "../../server/formats/geo-format.ts";
import { GeoTable } from "../../server/geo/geo-locator.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { zoneLocations } from "../geo/agreement.ts";
import { buildGeo } from "../geo/build-geo.ts";
import { DEFAULT_TZDB_DIR } from "../paths.ts";
import { nsPerOp } from "./timing.ts";

export async function benchGeo(dataDir: string): Promise<void> {
  const zones = await ZoneTable.load(join(dataDir, "zones.bin"));
  const out = mkdtempSync(join(tmpdir(), "zonetime-bench-geo-"));
  const manifest = await buildGeo(out, new Set(zones.names), new Date().toISOString());
  rmSync(out, { recursive: true, force: true });

  const table = GeoTable.load(join(dataDir, GEO_FILE));
  let seed = 42;
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const N = 1 << 15;
  const uniform = Array.from({ length: N }, () => [(Math.asin(2 * random() - 1) * 180) / Math.PI, random() * 360 - 180] as const);
  const cities = await zoneLocations(DEFAULT_TZDB_DIR);
  const nearCities = Array.from({ length: N }, (_, i) => {
    const [lat, lon] = cities[i % cities.length]!;
    return [Math.max(-90, Math.min(90, lat + (random() - 0.5) * 0.2)), Math.max(-180, Math.min(180, lon + (random() - 0.5) * 0.2))] as const;
  });
  const inBorderCells = [...uniform, ...nearCities].filter(([lat, lon]) => (table.answerAt(lat, lon), table.lastCell >= 0));
  const share = (points: readonly (readonly [number, number])[]) =>
    (100 * points.filter(([lat, lon]) => (table.answerAt(lat, lon), table.lastCell >= 0)).length) / points.length;
  const columns = (points: readonly (readonly [number, number])[]) => {
    const lat = Float64Array.from(points, (p) => p[0]);
    const lon = Float64Array.from(points, (p) => p[1]);
    return [lat, lon, points.length] as const;
  };
  const baselineMap = new Map(uniform.map((p, i) => [`${p[0]},${p[1]}`, i]));
  const keys = uniform.map((p) => `${p[0]},${p[1]}`);
  const baseline = nsPerOp(15, 200_000, (i) => baselineMap.get(keys[i & (N - 1)]!)!);
  const timed = (points: readonly (readonly [number, number])[]) => {
    const [lat, lon, n] = columns(points);
    return nsPerOp(15, 200_000, (i) => table.answerAt(lat[i % n]!, lon[i % n]!));
  };

  console.log("coordinates table (geo-tz/all polygons, exact)");
  console.log(`  build: ${(manifest.buildMs / 1000).toFixed(1)} s (goal < 60 s); ${manifest.stats.leaves} geo-tz leaves, ` +
    `${manifest.stats.nodes} quadtree nodes, ${manifest.stats.cells} border cells, ${manifest.stats.sharedEdges} shared edges stored once`);
  console.log(`  on disk: ${GEO_FILE} ${statSync(join(dataDir, GEO_FILE)).size} bytes (goal < 30 MB), mapped read-only`);
  console.log("  lookup cost, median ns per call            ns     x baseline");
  const row = (label: string, ns: number, goal = "") =>
    console.log(`  ${label.padEnd(40)} ${ns.toFixed(1).padStart(7)}  ${(ns / baseline).toFixed(2).padStart(6)}   ${goal}`);
  row("baseline: Map.get of a \"lat,lon\" string", baseline);
  row(`uniform by area (${share(uniform).toFixed(1)}% in border cells)`, timed(uniform), "goal < 2000 ns");
  row(`zone1970.tab ±0.1° (${share(nearCities).toFixed(1)}% border)`, timed(nearCities), "goal < 2000 ns");
  row(`border cells only (${inBorderCells.length} points)`, timed(inBorderCells), "goal < 2000 ns");
}

if (import.meta.main) await benchGeo(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
