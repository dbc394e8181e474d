// generated/manifest.json: what the build produced, from which sources, with checksums.
// The server reports it on /health, the site shows it on the attribution page, and the
// start command compares it with the sources to decide whether to rebuild.

import { join } from "node:path";
import type { GeoManifest } from "./geo/build-geo.ts";
import type { IpManifest } from "./ip/build-ip.ts";
import type { ZonesManifest } from "./tzdb/build-zones.ts";
import { writeAtomically } from "./write-atomically.ts";

export const MANIFEST_FILE = "manifest.json";

export interface Manifest {
  manifestVersion: 1;
  builtAt: string;
  tzdb: ZonesManifest;
  geo: GeoManifest;
  ip: IpManifest;
}

export async function readManifest(dataDir: string): Promise<Manifest | null> {
  const file = Bun.file(join(dataDir, MANIFEST_FILE));
  if (!(await file.exists())) return null;
  try {
    return (await file.json()) as Manifest;
  } catch {
    return null;
  }
}

export function writeManifest(dataDir: string, manifest: Manifest): void {
  writeAtomically(join(dataDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
}
