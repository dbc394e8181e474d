// Loading generated/ into the tables a request is answered from. Everything is read and
// validated before anything is returned, so a bad file never replaces good data. Plain
// data only: http/ derives its responses from it (apiData in server/http/api.ts).

import { join } from "node:path";
import { readManifest } from "../formats/manifest.ts";
import { ZONES_FILE } from "../formats/zones-format.ts";
import type { Tables } from "../http/api-data.ts";
import { IpTables } from "../ip/ip-locator.ts";
import { ZoneTable } from "../tz/zone-table.ts";

export async function loadData(dataDir: string): Promise<Tables> {
  const zones = await ZoneTable.load(join(dataDir, ZONES_FILE));
  const ip = await IpTables.load(dataDir);
  const manifest = await readManifest(dataDir);
  return { zones, ip, manifest };
}
