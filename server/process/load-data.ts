// Loading generated/ into the tables a request is answered from. Everything is read and
// validated before anything is returned, so a bad file never replaces good data.

import { join } from "node:path";
import type { ApiData } from "../http/api.ts";
import { Responses } from "../http/responses.ts";
import { IpTables } from "../ip/ip-locator.ts";
import { TimeObjectRenderer } from "../time-object/renderer.ts";
import { ZoneTable } from "../tz/zone-table.ts";

export interface LoadedData extends ApiData {
  zones: ZoneTable;
  ip: IpTables;
  /** generated/manifest.json as the build wrote it (versions, sources, checksums). */
  manifest: Record<string, unknown>;
}

export async function loadData(dataDir: string, extraHeaders: Record<string, string> = {}): Promise<LoadedData> {
  const zones = await ZoneTable.load(join(dataDir, "zones.bin"));
  const ip = await IpTables.load(dataDir);
  const manifestFile = Bun.file(join(dataDir, "manifest.json"));
  const manifest = (await manifestFile.exists()) ? ((await manifestFile.json()) as Record<string, unknown>) : {};
  const fingerprint = Bun.hash(zones.names.join("\n")).toString(16);
  return {
    zones,
    ip,
    manifest,
    responses: new Responses(zones.tzdbVersion, fingerprint, extraHeaders),
    renderer: new TimeObjectRenderer(zones),
  };
}
