// generated/geo.bin as the build makes it: it answers what geo-tz/all's `find` answers,
// the manifest records its source and checksum, and damaged files are refused naming the file.

import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkAgreement, zoneLocations } from "../../scripts/geo/agreement.ts";
import { sha256Hex } from "../../scripts/write-atomically.ts";
import { TableFormatError } from "../../server/core/errors.ts";
import { GEO_FILE, decodeGeoTable } from "../../server/formats/geo-format.ts";
import { GeoTable } from "../../server/geo/geo-locator.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

let dataDir: string;
let table: GeoTable;
beforeAll(async () => {
  dataDir = await testDataDir();
  table = GeoTable.load(join(dataDir, GEO_FILE));
}, 180_000);

describe("agreement with geo-tz/all", () => {
  test("20,000 points (zone1970.tab locations jittered, near borders, uniform, special lines): none away from a line disagrees", async () => {
    const result = checkAgreement(table, await zoneLocations(join(ROOT, "data", "tzdb")), 20_000, 11);
    expect(Object.values(result.checked).reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(result.checked.border).toBeGreaterThan(4_000);
    expect(result.disagreements.filter((d) => !d.onLine)).toEqual([]);
  }, 120_000);

  test("places, the sea, a disputed area (first zone, then the others)", () => {
    expect(table.zonesAt(51.5074, -0.1278)).toEqual(["Europe/London"]);
    expect(table.zonesAt(-33.8688, 151.2093)).toEqual(["Australia/Sydney"]);
    expect(table.zonesAt(0, -30)).toEqual(["Etc/GMT+2"]);
    // Xinjiang keeps two clocks; geo-tz lists both.
    expect(table.zonesAt(38.7503, 85.9829)).toEqual(["Asia/Urumqi", "Asia/Shanghai"]);
  });

  test("the manifest records the source, its boundary release, the licence and the file's checksum", () => {
    const manifest = JSON.parse(readFileSync(join(dataDir, "manifest.json"), "utf8"));
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(manifest.geo).toMatchObject({ version: pkg.dependencies["geo-tz"], product: "all", boundaryRelease: "2026d", license: "ODbL-1.0" });
    const bytes = readFileSync(join(dataDir, GEO_FILE));
    expect(manifest.geo.file).toEqual({ name: GEO_FILE, bytes: bytes.length, sha256: sha256Hex(bytes) });
    expect(table.metadata).toMatchObject({ source: "geo-tz", version: pkg.dependencies["geo-tz"], boundaryRelease: "2026d" });
  });
});

describe("damaged tables are refused, naming the file", () => {
  const refusal = (bytes: Uint8Array) => {
    try {
      decodeGeoTable(bytes.slice().buffer as ArrayBuffer, "/srv/generated/geo.bin");
    } catch (error) {
      expect(error).toBeInstanceOf(TableFormatError);
      return (error as Error).message;
    }
    throw new Error("accepted a damaged table");
  };
  test("truncated, bad magic, unknown major, a child pointing outside the tree", () => {
    const good = new Uint8Array(readFileSync(join(dataDir, GEO_FILE)));
    expect(refusal(good.slice(0, good.length - 2))).toMatch(/^\/srv\/generated\/geo\.bin: length mismatch: the header declares \d+ bytes/);
    expect(refusal(good.slice(0, 20))).toContain("truncated");
    const magic = good.slice();
    magic[0] = 0x58;
    expect(refusal(magic)).toBe("/srv/generated/geo.bin: not a zonetime coordinates table (bad magic bytes)");
    const major = good.slice();
    new DataView(major.buffer).setUint16(8, 2, true);
    expect(refusal(major)).toContain("format major version 2 is not supported");
    const loop = good.slice();
    const view = new DataView(loop.buffer);
    const oceanCount = view.getUint32(12 + 4 * 6, true);
    view.setUint32(64 + 16 * oceanCount, 0, true); // the root's first child: the root itself
    expect(refusal(loop)).toBe("/srv/generated/geo.bin: quadtree node 0: child 0 is out of range");
  });

  test("GeoTable.load names a missing file", () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-geo-"));
    expect(() => GeoTable.load(join(dir, GEO_FILE))).toThrow(`${join(dir, GEO_FILE)}: missing: run \`bun run build\``);
    writeFileSync(join(dir, GEO_FILE), readFileSync(join(dataDir, GEO_FILE)).subarray(0, 1000));
    expect(() => GeoTable.load(join(dir, GEO_FILE))).toThrow(`${join(dir, GEO_FILE)}: length mismatch`);
  });
});
