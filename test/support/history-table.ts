// Every tzdb release served, as the runtime reads them: data/tzdb and data/tzdb-releases
// built into a temporary tzdb-history.bin (the build's own step), decoded, with the default
// release answered from the test zone table (as the server answers it from zones.bin).

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildHistory } from "../../scripts/tzdb/history/build-history.ts";
import { HISTORY_FILE } from "../../server/formats/history-format.ts";
import { TzdbHistory } from "../../server/tz/tzdb-history.ts";
import { testZoneTable } from "./zone-table.ts";

export const REPO_TZDB_DIR = join(import.meta.dir, "..", "..", "data", "tzdb");

let cached: Promise<TzdbHistory> | null = null;

export function testHistory(): Promise<TzdbHistory> {
  cached ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-history-"));
    await buildHistory(REPO_TZDB_DIR, dir, "2026-11-21T00:00:00Z");
    const bytes = readFileSync(join(dir, HISTORY_FILE));
    return TzdbHistory.fromBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, HISTORY_FILE, await testZoneTable());
  })();
  return cached;
}
