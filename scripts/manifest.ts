// Writes generated/manifest.json; its schema and reader are the contract shared with the
// server (server/formats/manifest.ts).

import { join } from "node:path";
import { MANIFEST_FILE, readManifest, type Manifest } from "../server/formats/manifest.ts";
import { writeAtomically } from "./write-atomically.ts";

export type { Manifest } from "../server/formats/manifest.ts";

/** The last build's manifest; null when there is none or it cannot be used (the build then starts afresh). */
export async function previousManifest(dataDir: string): Promise<Manifest | null> {
  try {
    return await readManifest(dataDir);
  } catch {
    return null;
  }
}

export function writeManifest(dataDir: string, manifest: Manifest): void {
  writeAtomically(join(dataDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
}
