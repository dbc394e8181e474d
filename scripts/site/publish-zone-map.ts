// The world map is compiled from geo-tz's polygons (about 20 s); it is kept in
// generated/site-data/zone-map.json and compiled again only when the boundary data or the
// compiler changes (the key beside it names both).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../write-atomically.ts";
import { compileZoneMap } from "./zone-map.ts";

export const ZONE_MAP_FILE = "zone-map.json";

export async function publishZoneMap(dataDir: string, out: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(dataDir, "manifest.json"), "utf8")) as { geo: { version: string; boundaryRelease: string } };
  const compiler = new Bun.CryptoHasher("sha256").update(readFileSync(join(import.meta.dir, "zone-map.ts"))).digest("hex").slice(0, 16);
  const key = `${manifest.geo.version} ${manifest.geo.boundaryRelease} ${compiler}`;
  const keyFile = join(out, `${ZONE_MAP_FILE}.key`);
  if (existsSync(join(out, ZONE_MAP_FILE)) && existsSync(keyFile) && readFileSync(keyFile, "utf8") === key) return;
  const { geoTzSource } = await import("../geo/geo-source.ts");
  const { json } = compileZoneMap(await geoTzSource());
  writeAtomically(join(out, ZONE_MAP_FILE), json);
  writeAtomically(keyFile, key);
}
