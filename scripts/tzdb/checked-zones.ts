// zones.bin with every zone's device footer check made (server/device/device-tz.ts,
// footerCheck): a 400-year walk per zone that every worker made at every start
// (340-490 ms and 75 MB of garbage each), and per tzdb release on its first /device list
// (240 ms a release), made here once per build for zones.bin and every stored version.

import { footerChecks } from "../../server/device/device-tz.ts";
import { encodeZones, type ZoneTableInput } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";

export function encodeCheckedZones(input: ZoneTableInput): Uint8Array {
  const unchecked = encodeZones(input);
  const table = ZoneTable.fromBuffer(unchecked.buffer as ArrayBuffer, "zones.bin (unchecked)");
  return encodeZones({ ...input, deviceFooterFrom: footerChecks(table) });
}
