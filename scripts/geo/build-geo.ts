// `bun run build`, coordinates part: geo-tz's boundary polygons -> generated/geo.bin.

import { join } from "node:path";
import { GEO_FILE, encodeGeoTable } from "../../server/formats/geo-format.ts";
import type { GeoManifest } from "../../server/formats/manifest.ts";
import { sha256Hex, writeAtomically } from "../write-atomically.ts";
import { compileGeo } from "./compile-geo.ts";
import { GEO_TZ_PACKAGE } from "./geo-release.ts";

export async function buildGeo(outDir: string, validNames: ReadonlySet<string>, builtAt: string): Promise<GeoManifest> {
  const started = performance.now();
  // Loaded here, not at import: `bun run start` imports the build, and the server's process
  // should not carry geo-tz when it has nothing to build.
  const { geoTzSource } = await import("./geo-source.ts");
  const source = await geoTzSource();
  const { table, stats } = compileGeo(source, validNames);
  if (stats.inexactVertices > 0) throw new Error(`geo: ${stats.inexactVertices} vertices are not whole microdegrees; the table would not be exact`);
  const metadata = { source: GEO_TZ_PACKAGE, version: source.version, product: "all", boundaryRelease: source.boundaryRelease, builtAt };
  const bytes = encodeGeoTable({ ...table, metadata });
  writeAtomically(join(outDir, GEO_FILE), bytes);
  return {
    source: `timezone-boundary-builder (npm ${GEO_TZ_PACKAGE}, geo-tz/all)`,
    version: source.version,
    product: "all",
    boundaryRelease: source.boundaryRelease,
    license: "ODbL-1.0",
    credit: {
      text: "Timezone boundaries: timezone-boundary-builder by Evan Siroky, from OpenStreetMap data, under the Open Database License (ODbL)",
      url: "https://github.com/evansiroky/timezone-boundary-builder",
    },
    zones: table.names.length,
    stats: { ...stats },
    file: { name: GEO_FILE, bytes: bytes.length, sha256: sha256Hex(bytes) },
    buildMs: Math.round(performance.now() - started),
  };
}
