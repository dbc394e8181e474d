// `bun run build`, tz part: data/tzdb/tzdata.zi -> generated/zones.bin.

import { join } from "node:path";
import type { ZonesManifest } from "../../server/formats/manifest.ts";
import { ZONES_FILE } from "../../server/formats/zones-format.ts";
import { encodeCheckedZones } from "./checked-zones.ts";
import { sha256Hex, writeAtomically } from "../write-atomically.ts";
import { compileTzdb, toTableInput } from "./compile.ts";
import { readZoneFacts } from "./zone-facts.ts";

export const TZDATA_FILE = "tzdata.zi";

/** Reads the pinned source; `# version` inside tzdata.zi names the release. */
export async function readTzdbSource(tzdbDir: string): Promise<{ name: string; text: string }> {
  const path = join(tzdbDir, TZDATA_FILE);
  const file = Bun.file(path);
  if (!(await file.exists())) throw new Error(`${path} is missing: the tz source must be there (see data/tzdb/README.md)`);
  return { name: path, text: await file.text() };
}

export async function buildZones(tzdbDir: string, outDir: string, builtAt: string): Promise<ZonesManifest> {
  const started = performance.now();
  const source = await readTzdbSource(tzdbDir);
  const tz = compileTzdb([source]);
  const input = toTableInput(tz, builtAt, await readZoneFacts(tzdbDir));
  const bytes = encodeCheckedZones(input);
  writeAtomically(join(outDir, ZONES_FILE), bytes);
  return {
    version: tz.version,
    sourceSha256: sha256Hex(source.text),
    zones: input.zones.length,
    names: input.names.length,
    horizonYear: tz.horizonYear,
    file: ZONES_FILE,
    sha256: sha256Hex(bytes),
    bytes: bytes.length,
    buildMs: Math.round(performance.now() - started),
  };
}
