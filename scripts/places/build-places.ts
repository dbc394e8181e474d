// `bun run build`, places part: GeoNames' cities500 (geonames-source.ts) -> generated/places.bin.
// Each place's zone is our own boundary table's answer at the place's point (geo.bin), so a
// place and /coordinates at its latitude and longitude always agree.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GeoTable } from "../../server/geo/geo-locator.ts";
import type { PlacesManifest } from "../../server/formats/manifest.ts";
import { decodePlacesTable, encodePlacesTable, MAX_LIMIT, NO_ADMIN1, PLACES_FILE, type PlacesTableInput } from "../../server/formats/places-format.ts";
import { COUNTRY_HEAVY_POSTINGS, HEAVY_POSTINGS, PlaceTable } from "../../server/places/place-table.ts";
import { sha256Hex, writeAtomically } from "../write-atomically.ts";
import { buildFoldMap } from "./fold-map.ts";
import { ADMIN1_PACKAGE, PLACES_PACKAGE, readPlacesSource, type GeoNamesPlace } from "./geonames-source.ts";
import { buildKeys, countryPostings, firstKeyWithPrefix, heavyPrefixes } from "./search-keys.ts";

/** Alternate names (other languages, old names: "Bombay", "Londres") are kept for places this large. */
export const ALTERNATES_MIN_POPULATION = 15000;
/** Codes GeoNames uses that tzdb's iso3166.tab does not list. */
const EXTRA_COUNTRIES: Record<string, string> = { XK: "Kosovo" };

/** How a place weighs in ranking: its population, a national capital doubled, a region's seat by a quarter. */
export function placeWeight(p: GeoNamesPlace): number {
  const factor = p.featureCode === "PPLC" ? 2 : p.featureCode === "PPLA" || p.featureCode === "PPLG" ? 1.25 : 1;
  return p.population * factor;
}

function countryNames(tzdbDir: string): Map<string, string> {
  const names = new Map<string, string>(Object.entries(EXTRA_COUNTRIES));
  for (const line of readFileSync(join(tzdbDir, "iso3166.tab"), "utf8").split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const [code, name] = line.split("\t");
    names.set(code!, name!);
  }
  return names;
}

export function buildPlaces(outDir: string, tzdbDir: string, geo: GeoTable, validZones: ReadonlySet<string>, builtAt: string): PlacesManifest {
  const started = performance.now();
  const source = readPlacesSource();
  const countries = countryNames(tzdbDir);
  // Best first, ties by GeoNames id: a place's index is its rank.
  const places = [...source.places].sort((a, b) => placeWeight(b) - placeWeight(a) || a.id - b.id);
  const n = places.length;
  const zones: string[] = [];
  const zoneIndex = new Map<string, number>();
  // Every ISO code, with places or not: `country=AQ` is a country, `country=ZZ` is not.
  const countryCodes = [...new Set([...countries.keys(), ...places.map((p) => p.country)])].sort();
  const countryIndex = new Map(countryCodes.map((c, i) => [c, i]));
  const admin1Names: string[] = [];
  const admin1Index = new Map<string, number>();
  const input: Omit<PlacesTableInput, "keyOffsets" | "keyBytes" | "postingStarts" | "postings" | "heavy" | "heavyStarts" | "heavyEntries" | "heavyGroupStarts" | "countryPostingStarts" | "countryPostings" | "foldCodes" | "foldOffsets" | "foldBytes" | "metadata"> = {
    ids: new Uint32Array(n), lat5: new Int32Array(n), lon5: new Int32Array(n), population: new Uint32Array(n),
    nameOffsets: new Uint32Array(n + 1), nameBytes: new Uint8Array(0), zone: new Uint16Array(n), country: new Uint8Array(n),
    admin1: new Uint16Array(n), zones, countryCodes, countryNames: countryCodes.map((c) => countries.get(c) ?? c), admin1Names,
  };
  const encoder = new TextEncoder();
  const names: Uint8Array[] = [];
  let nameBytes = 0;
  places.forEach((p, i) => {
    input.ids[i] = p.id;
    input.lat5[i] = p.lat5;
    input.lon5[i] = p.lon5;
    input.population[i] = p.population;
    // Exactly the numbers /coordinates parses from the latitude and longitude we print.
    const zone = geo.zonesAt(p.lat5 / 1e5, p.lon5 / 1e5)[0];
    if (zone === undefined || !validZones.has(zone)) throw new Error(`places: no zone of ours at ${p.name} (${p.lat5 / 1e5},${p.lon5 / 1e5}): ${zone}`);
    let z = zoneIndex.get(zone);
    if (z === undefined) zoneIndex.set(zone, (z = zones.push(zone) - 1));
    input.zone[i] = z;
    input.country[i] = countryIndex.get(p.country)!;
    const regionName = p.admin1Code ? source.admin1.get(`${p.country}.${p.admin1Code}`) : undefined;
    let a = NO_ADMIN1;
    if (regionName !== undefined) {
      const known = admin1Index.get(regionName);
      a = known ?? admin1Names.push(regionName) - 1;
      if (known === undefined) admin1Index.set(regionName, a);
    }
    input.admin1[i] = a;
    const bytes = encoder.encode(p.name);
    names.push(bytes);
    input.nameOffsets[i] = nameBytes;
    nameBytes += bytes.length;
  });
  input.nameOffsets[n] = nameBytes;
  input.nameBytes = new Uint8Array(nameBytes);
  names.forEach((b, i) => input.nameBytes.set(b, input.nameOffsets[i]!));
  if (zones.length >= 0xffff || countryCodes.length > 0x100 || admin1Names.length >= NO_ADMIN1) throw new Error("places: too many zones (u16), countries (u8) or regions (u16) for their indexes");

  const foldMap = buildFoldMap();
  const foldCodes = new Uint16Array([...foldMap.keys()]);
  const foldParts = [...foldMap.values()].map((v) => encoder.encode(v));
  const foldOffsets = new Uint32Array(foldParts.length + 1);
  foldParts.forEach((b, i) => (foldOffsets[i + 1] = foldOffsets[i]! + b.length));
  const foldBytes = new Uint8Array(foldOffsets[foldParts.length]!);
  foldParts.forEach((b, i) => foldBytes.set(b, foldOffsets[i]!));

  const keys = buildKeys(n, (i) => {
    const p = places[i]!;
    return p.population >= ALTERNATES_MIN_POPULATION ? [p.name, ...p.alternates] : [p.name];
  }, (i) => placeWeight(places[i]!), foldMap);
  const metadata = {
    source: PLACES_PACKAGE, version: source.version, admin1Source: ADMIN1_PACKAGE, admin1Version: source.admin1Version,
    dataDate: source.dataDate, builtAt,
  };
  const byCountry = countryPostings(keys, (index) => input.country[index]!, countryCodes.length);
  const withoutHeavy: PlacesTableInput = {
    ...input, ...keys, foldCodes, foldOffsets, foldBytes, metadata,
    heavy: new Uint32Array(0), heavyStarts: new Uint32Array(1), heavyEntries: new Uint32Array(0),
    heavyGroupStarts: new Uint32Array(countryCodes.length + 2), countryPostingStarts: byCountry.starts, countryPostings: byCountry.postings,
  };
  // The precomputed lists are what the server's own scan answers for those prefixes: group 0
  // over all places, then one group per country over its own postings (keyed by the first
  // key of all with the prefix, which is what the server's binary search finds).
  const groups: [number, number][][] = [heavyPrefixes(keys, HEAVY_POSTINGS)];
  for (const subset of byCountry.subsets) {
    const found = heavyPrefixes(keys, COUNTRY_HEAVY_POSTINGS, subset).map(([key, length]): [number, number] => [firstKeyWithPrefix(keys, key, length), length]);
    groups.push(found.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  }
  const scanner = new PlaceTable(decodePlacesTable(encodePlacesTable(withoutHeavy).buffer as ArrayBuffer, PLACES_FILE));
  const heavy = groups.flat();
  const heavyStarts = new Uint32Array(heavy.length + 1);
  const heavyGroupStarts = new Uint32Array(groups.length + 1);
  const entries: number[] = [];
  let h = 0;
  groups.forEach((group, g) => {
    for (const [key, length] of group) {
      for (const index of scanner.rankedPrefix(key, length, MAX_LIMIT, g - 1)) entries.push(index);
      heavyStarts[++h] = entries.length;
    }
    heavyGroupStarts[g + 1] = h;
  });
  const table: PlacesTableInput = {
    ...withoutHeavy, heavy: new Uint32Array(heavy.flat()), heavyStarts, heavyEntries: new Uint32Array(entries), heavyGroupStarts,
  };
  const bytes = encodePlacesTable(table);
  writeAtomically(join(outDir, PLACES_FILE), bytes);
  return {
    source: `GeoNames cities500 (npm ${PLACES_PACKAGE}), regions from npm ${ADMIN1_PACKAGE}`,
    version: `${source.version}+${source.admin1Version}`,
    dataDate: source.dataDate,
    license: "CC-BY-4.0",
    credit: { text: "Places: GeoNames (geonames.org), under Creative Commons Attribution 4.0", url: "https://www.geonames.org/" },
    places: n,
    keys: keys.keyOffsets.length - 1,
    heavyPrefixes: heavy.length,
    file: { name: PLACES_FILE, bytes: bytes.length, sha256: sha256Hex(bytes) },
    buildMs: Math.round(performance.now() - started),
  };
}
