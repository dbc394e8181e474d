// Loading generated/ into the tables a request is answered from. Everything is read and
// validated before anything is returned, so a bad file never replaces good data. Plain
// data only: http/ derives its responses from it (apiData in server/http/api.ts).

import { join } from "node:path";
import { readManifest } from "../formats/manifest.ts";
import { ZONES_FILE } from "../formats/zones-format.ts";
import type { Tables } from "../http/api-data.ts";
import { TableFormatError } from "../core/errors.ts";
import { GEO_FILE } from "../formats/geo-format.ts";
import { GeoTable } from "../geo/geo-locator.ts";
import { IpTables } from "../ip/ip-locator.ts";
import { ZoneTable } from "../tz/zone-table.ts";

export async function loadData(dataDir: string): Promise<Tables> {
  const zones = await ZoneTable.load(join(dataDir, ZONES_FILE));
  const ip = await IpTables.load(dataDir);
  const geoFile = join(dataDir, GEO_FILE);
  const geo = GeoTable.load(geoFile);
  // geo.bin names zones; a zones.bin from another tzdb build might lack one of them.
  const unknown = geo.data.names.filter((name) => zones.resolve(name) === undefined);
  if (unknown.length > 0) throw new TableFormatError(geoFile, `names zones that ${ZONES_FILE} lacks (${unknown.slice(0, 5).join(", ")}); rebuild with \`bun run build\``);
  const manifest = await readManifest(dataDir);
  return { zones, ip, geo, manifest };
}
