// The device strings' footer check (is zic's TZ string right for good from its start, on
// device libcs?) is a 400-year walk per zone. The build makes it once and stores it in
// zones.bin (and for every version in tzdb-history.bin); a worker reads it instead of
// walking at every start (340-490 ms and 75 MB of garbage) and for every release's first
// /device list (240 ms each). What is stored must be what the walk gives, and a table
// without it (an older zones.bin) must answer the same.

import { describe, expect, test } from "bun:test";
import { DeviceStrings, footerChecks } from "../../server/device/device-tz.ts";
import { join } from "node:path";
import { TableFormatError } from "../../server/core/errors.ts";
import { decodeHistory, HISTORY_FILE } from "../../server/formats/history-format.ts";
import { decodeZones, ZONES_FILE, type ZoneTableData } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { testDataDir } from "../support/test-server.ts";

const dir = await testDataDir();
const zonesBytes = new Uint8Array(await Bun.file(join(dir, ZONES_FILE)).arrayBuffer());
const zonesData = decodeZones(zonesBytes.slice().buffer as ArrayBuffer, ZONES_FILE);
const versionsData = decodeHistory(await Bun.file(join(dir, HISTORY_FILE)).arrayBuffer(), HISTORY_FILE).zones;

/** The table as an older zones.bin gives it: the same zones, no checks made. */
const unchecked = (data: ZoneTableData) => new ZoneTable({ ...data, deviceFooterFrom: new Float64Array(0) });

describe("device footer checks made by the build", () => {
  test("zones.bin: every zone checked, each what the walk gives", () => {
    const zones = new ZoneTable(zonesData);
    const walked = footerChecks(unchecked(zonesData));
    const stored = Array.from({ length: zones.zoneCount }, (_, z) => zones.checkedDeviceFooterFrom(z));
    expect(stored.filter((v) => v === undefined)).toEqual([]);
    expect(stored).toEqual(Array.from(walked));
    // Not all trivially one answer: most zones' strings hold from their start, a few never.
    expect(stored.filter((v) => v === Infinity).length).toBeGreaterThan(0);
    expect(stored.filter((v) => v !== Infinity).length).toBeGreaterThan(300);
  });

  test("tzdb-history.bin: every stored version checked, each what the walk gives", () => {
    const versions = new ZoneTable(versionsData);
    const walked = footerChecks(unchecked(versionsData));
    const stored = Array.from({ length: versions.zoneCount }, (_, z) => versions.checkedDeviceFooterFrom(z));
    expect(versions.zoneCount).toBeGreaterThan(1000);
    expect(stored).toEqual(Array.from(walked));
  }, 60_000);

  test("without the checks (an older zones.bin) the device strings are the same, at instants on both sides of every zone's TZ string start", () => {
    const zones = new ZoneTable(zonesData);
    const checked = new DeviceStrings(zones);
    const walking = new DeviceStrings(unchecked(zonesData));
    let compared = 0;
    for (let z = 0; z < zones.zoneCount; z++) {
      const from = zones.posixTz(z)?.from ?? 0;
      const start = Number.isFinite(from) ? from : 0;
      for (const at of [start - 86_400, start, start + 86_400 * 400, 1_790_000_000]) {
        expect(checked.at(z, at)).toEqual(walking.at(z, at));
        compared++;
      }
    }
    expect(compared).toBe(4 * zones.zoneCount);
  });

  test("a stored check that is neither the TZ string's start nor never is refused, naming the zone", () => {
    // The checks are the file's last section: one f64 per zone.
    const bytes = zonesBytes.slice();
    const count = zonesData.deviceFooterFrom.length;
    const checks = new Float64Array(bytes.buffer, bytes.length - 8 * count, count);
    const zone = checks.findIndex((v) => Number.isFinite(v));
    expect(zone).toBeGreaterThanOrEqual(0);
    checks[zone] = checks[zone]! + 1;
    expect(() => decodeZones(bytes.buffer as ArrayBuffer, "zones.bin")).toThrow(TableFormatError);
    expect(() => decodeZones(bytes.buffer as ArrayBuffer, "zones.bin")).toThrow(`zones.bin: zone ${zone}: device footer check is not its TZ string's start`);
  });
});
