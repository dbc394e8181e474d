// Reads generated/manifest.json for the build; its schema and reader are the contract shared
// with the server (server/formats/manifest.ts). It is written by scripts/table-set-writer.ts.

import { readManifest, type Manifest } from "../server/formats/manifest.ts";

export type { Manifest } from "../server/formats/manifest.ts";

/** The last build's manifest; null when there is none or it cannot be used (the build then starts afresh). */
export async function previousManifest(dataDir: string): Promise<Manifest | null> {
  try {
    return await readManifest(dataDir);
  } catch {
    return null;
  }
}
