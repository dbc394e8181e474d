// Loading generated/ into the tables a request is answered from. Everything is read,
// checked against the manifest's sha256 (table-set.ts) and decoded before anything is
// returned, so a bad file never replaces good data, and a generation is taken whole: the
// manifest and every table from the same build, or none of them. Plain data only: http/
// derives its responses from it (apiData in server/http/pipeline/api-data.ts).

import { TableFormatError } from "../core/errors.ts";
import { decodeGeoTable, GEO_FILE } from "../formats/geo-format.ts";
import { decodeIpTable, IPV4_FILE, IPV6_FILE } from "../formats/ip-format.ts";
import { decodePlacesTable, PLACES_FILE } from "../formats/places-format.ts";
import { ZONES_FILE } from "../formats/zones-format.ts";
import { GeoTable } from "../geo/geo-locator.ts";
import type { Tables } from "../http/pipeline/api-data.ts";
import { IpTables } from "../ip/ip-locator.ts";
import { PlaceTable } from "../places/place-table.ts";
import { ZoneTable } from "../tz/zone-table.ts";
import { NAMES_FILE } from "../formats/names-format.ts";
import { NamesTable } from "../names/names-table.ts";
import { readTableSet, type TableSet } from "./table-set.ts";
import { HISTORY_FILE } from "../formats/history-format.ts";
import { TzdbHistory } from "../tz/tzdb-history.ts";

/** The tables of a checked set, decoded (the set's sealed bytes, no copy). */
export function decodeTables({ manifest, tables }: TableSet): Tables {
  const zones = ZoneTable.fromBuffer(tables[ZONES_FILE].buffer, tables[ZONES_FILE].path);
  const ip = new IpTables(
    decodeIpTable(tables[IPV4_FILE].buffer, tables[IPV4_FILE].path, 4),
    decodeIpTable(tables[IPV6_FILE].buffer, tables[IPV6_FILE].path, 6),
  );
  const { buffer, path: geoFile } = tables[GEO_FILE];
  const geo = new GeoTable(decodeGeoTable(buffer, geoFile));
  // geo.bin names zones; a zones.bin from another tzdb build might lack one of them.
  const unknown = geo.data.names.filter((name) => zones.resolve(name) === undefined);
  if (unknown.length > 0) throw new TableFormatError(geoFile, `names zones that ${ZONES_FILE} lacks (${unknown.slice(0, 5).join(", ")}); rebuild with \`bun run build\``);
  const names = NamesTable.fromBuffer(tables[NAMES_FILE].buffer, tables[NAMES_FILE].path);
  const places = new PlaceTable(decodePlacesTable(tables[PLACES_FILE].buffer, tables[PLACES_FILE].path));
  const placeZones = places.data.zones.filter((name) => zones.resolve(name) === undefined);
  if (placeZones.length > 0) throw new TableFormatError(tables[PLACES_FILE].path, `names zones that ${ZONES_FILE} lacks (${placeZones.slice(0, 5).join(", ")}); rebuild with \`bun run build\``);
  const history = TzdbHistory.fromBuffer(tables[HISTORY_FILE].buffer, tables[HISTORY_FILE].path, zones, { buffer: tables[ZONES_FILE].buffer, file: tables[ZONES_FILE].path });
  if (history.defaultRelease !== zones.tzdbVersion) {
    throw new TableFormatError(tables[HISTORY_FILE].path, `serves ${history.defaultRelease} first, not ${ZONES_FILE}'s ${zones.tzdbVersion}; rebuild with \`bun run build\``);
  }
  return { zones, ip, geo, names, places, manifest, history };
}

/** The set DATA_DIR's manifest names, in this process's own sealed memory. */
export async function loadData(dataDir: string): Promise<Tables> {
  return decodeTables(await readTableSet(dataDir));
}

