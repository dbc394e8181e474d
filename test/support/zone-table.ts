// The zone table the tests query: compiled from the repository's data/tzdb and passed
// through the binary format (encode, then decode), exactly as a build and a server load
// would, without touching generated/.

import { join } from "node:path";
import { compileTzdb, toTableInput } from "../../scripts/tzdb/compile.ts";
import { encodeZones } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";

export const REPO_TZDATA = join(import.meta.dir, "..", "..", "data", "tzdb", "tzdata.zi");

let cached: ZoneTable | null = null;

export async function testZoneTable(): Promise<ZoneTable> {
  if (cached) return cached;
  const text = await Bun.file(REPO_TZDATA).text();
  const bytes = encodeZones(toTableInput(compileTzdb([{ name: "data/tzdb/tzdata.zi", text }]), "2026-11-21T00:00:00Z"));
  cached = ZoneTable.fromBuffer(bytes.buffer as ArrayBuffer, "zones.bin (test build)");
  return cached;
}

/** Unix seconds of an ISO 8601 UTC instant, for readable test tables. */
export function utc(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad test instant ${iso}`);
  return ms / 1000;
}
