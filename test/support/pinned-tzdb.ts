// Release 2026f as a fixture (test/fixtures/tzdb-2026f, see its SOURCE.md), compiled with
// the project's own build step into a temporary directory, for the tests whose truth is
// that one release: they stay true whatever release data/tzdb/ holds.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildZones, TZDATA_FILE } from "../../scripts/tzdb/build-zones.ts";
import { ZONES_FILE } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";

export const PINNED_RELEASE = "2026f";
export const PINNED_TZDB_DIR = join(import.meta.dir, "..", "fixtures", `tzdb-${PINNED_RELEASE}`);
export const PINNED_TZDATA = join(PINNED_TZDB_DIR, TZDATA_FILE);
/** The build time written into the pinned zones.bin, so that its header is reproducible. */
export const PINNED_BUILT_AT = "2026-11-21T00:00:00Z";

let zonesFile: Promise<string> | null = null;

/** zones.bin compiled from the pinned source (once per test run). */
export function pinnedZonesFile(): Promise<string> {
  zonesFile ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), `zonetime-tzdb-${PINNED_RELEASE}-`));
    await buildZones(PINNED_TZDB_DIR, dir, PINNED_BUILT_AT);
    return join(dir, ZONES_FILE);
  })();
  return zonesFile;
}

export async function pinnedZoneTable(): Promise<ZoneTable> {
  return ZoneTable.load(await pinnedZonesFile());
}
