// The names table the tests query: compiled from the pinned CLDR packages and the
// repository's data/tzdb (through the test zone table), then passed through the binary
// format as a build and a server load would, without touching generated/.

import { join } from "node:path";
import { readCldr } from "../../scripts/names/cldr-source.ts";
import { compileNames } from "../../scripts/names/compile-names.ts";
import { tzFacts } from "../../scripts/names/build-names.ts";
import { encodeNames } from "../../server/formats/names-format.ts";
import { NamesTable } from "../../server/names/names-table.ts";
import { ZoneNamer } from "../../server/names/zone-namer.ts";
import { testZoneTable } from "./zone-table.ts";

export const TZDB_DIR = join(import.meta.dir, "..", "..", "data", "tzdb");
let cached: Promise<ZoneNamer> | null = null;

export function testNamer(): Promise<ZoneNamer> {
  cached ??= (async () => {
    const zones = await testZoneTable();
    const { input } = compileNames(readCldr(), tzFacts(TZDB_DIR, zones, Date.parse("2026-11-21T00:00:00Z")));
    const bytes = encodeNames(input);
    return new ZoneNamer(zones, NamesTable.fromBuffer(bytes.buffer as ArrayBuffer, "names.bin (test build)"));
  })();
  return cached;
}
