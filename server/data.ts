// Loading generated/ into the tables a request is answered from. Everything is read,
// checked against the manifest's sha256 (process/table-set.ts) and decoded before
// anything is returned, so a bad file never replaces good data, and a generation is
// taken whole: the manifest and every table from the same build, or none of them.

import type { ApiData } from "./http/api.ts";
import { Responses } from "./http/responses.ts";
import type { Manifest } from "./formats/manifest.ts";
import { decodeIpTable } from "./ip/ip-format.ts";
import { IPV4_FILE, IPV6_FILE, IpTables } from "./ip/ip-locator.ts";
import { readTableSet } from "./process/table-set.ts";
import { TimeObjectRenderer } from "./time-object-renderer.ts";
import { ZoneTable } from "./tz/zone-table.ts";
import { ZONES_FILE } from "./tz/zones-format.ts";

export interface LoadedData extends ApiData {
  zones: ZoneTable;
  ip: IpTables;
  /** generated/manifest.json as the build wrote it (versions, sources, checksums), its shape checked. */
  manifest: Manifest;
}

export async function loadData(dataDir: string, extraHeaders: Record<string, string> = {}): Promise<LoadedData> {
  const { manifest, tables } = await readTableSet(dataDir);
  const zones = ZoneTable.fromBuffer(tables[ZONES_FILE].buffer, tables[ZONES_FILE].path);
  const ip = new IpTables(
    decodeIpTable(tables[IPV4_FILE].buffer, tables[IPV4_FILE].path, 4),
    decodeIpTable(tables[IPV6_FILE].buffer, tables[IPV6_FILE].path, 6),
  );
  const fingerprint = Bun.hash(zones.names.join("\n")).toString(16);
  return {
    zones,
    ip,
    manifest,
    responses: new Responses(zones.tzdbVersion, fingerprint, extraHeaders),
    renderer: new TimeObjectRenderer(zones),
  };
}
