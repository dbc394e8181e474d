// `bun run build`: compiles the pinned sources into generated/ (zones.bin, geo.bin, ip4.bin,
// ip6.bin, places.bin, names.bin, manifest.json). Flags: --tzdb-dir DIR (default data/tzdb), --out DIR (default
// $DATA_DIR or generated/), --only tz|geo|ip|names|places (the other parts are kept from the last build),
// --ip-source FILE (default $IP_SOURCE, else the embedded DB-IP City Lite): a MaxMind
// GeoIP2/GeoLite2 City database to compile instead, --no-site (skip the website).

import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR, DEFAULT_TZDB_DIR } from "./paths.ts";
import { previousManifest, writeManifest, type Manifest } from "./manifest.ts";
import { buildZones } from "./tzdb/build-zones.ts";
import { ZONES_FILE } from "../server/formats/zones-format.ts";
import { buildIp } from "./ip/build-ip.ts";
import { buildGeo } from "./geo/build-geo.ts";
import { zoneAtCoordinates } from "./ip/zone-at-coordinates.ts";
import { GEO_FILE } from "../server/formats/geo-format.ts";
import { GeoTable } from "../server/geo/geo-locator.ts";
import { dbipSource, maxmindSource } from "./ip/ip-sources.ts";
import { ZoneTable } from "../server/tz/zone-table.ts";
import { join } from "node:path";
import { buildSite } from "./site/build-site.ts";
import { buildNames } from "./names/build-names.ts";
import { buildPlaces } from "./places/build-places.ts";

export interface BuildOptions {
  tzdbDir: string;
  outDir: string;
  only?: "tz" | "geo" | "ip" | "names" | "places";
  /** A MaxMind City mmdb to compile instead of the embedded DB-IP data. */
  ipSource?: string;
  /** Also build the website into this folder (the CLI: site/dist unless --no-site). */
  siteOut?: string;
}

export async function build(options: BuildOptions): Promise<Manifest> {
  mkdirSync(options.outDir, { recursive: true });
  const builtAt = new Date().toISOString();
  const previous = await previousManifest(options.outDir);
  const keep = (part: "tz" | "geo" | "ip" | "names" | "places") => options.only !== undefined && options.only !== part;
  const tzdb = keep("tz") && previous ? previous.tzdb : await buildZones(options.tzdbDir, options.outDir, builtAt);
  // The coordinates and IP tables map onto the names our own tz table serves.
  const zones = await ZoneTable.load(join(options.outDir, ZONES_FILE));
  // The IP source is opened first: a bad one fails the build before the long geo step.
  const ipSource = keep("ip") && previous?.ip ? null : options.ipSource ? await maxmindSource(options.ipSource) : await dbipSource();
  const geo = keep("geo") && previous?.geo ? previous.geo : await buildGeo(options.outDir, new Set(zones.names), builtAt);
  const ip = ipSource === null ? previous!.ip : await buildIp(ipSource, zoneAtCoordinates(GeoTable.load(join(options.outDir, GEO_FILE))),
    options.outDir, new Set(zones.names), builtAt);
  // Names follow the release's names and zone.tab: rebuilt whenever tz is.
  const names = keep("names") && keep("tz") && previous?.names ? previous.names : await buildNames(options.tzdbDir, options.outDir, zones, builtAt);
  // Places take their zones from geo.bin: rebuilt whenever it is, so they always agree.
  const places = keep("places") && keep("geo") && previous?.places ? previous.places
    : buildPlaces(options.outDir, options.tzdbDir, GeoTable.load(join(options.outDir, GEO_FILE)), new Set(zones.names), builtAt);
  const manifest: Manifest = { manifestVersion: 1, builtAt, tzdb, geo, ip, names, places };
  writeManifest(options.outDir, manifest);
  if (options.siteOut) await buildSite(options.outDir, options.siteOut);
  return manifest;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      "tzdb-dir": { type: "string", default: DEFAULT_TZDB_DIR },
      out: { type: "string", default: process.env.DATA_DIR || DEFAULT_DATA_DIR },
      only: { type: "string" },
      "ip-source": { type: "string", default: process.env.IP_SOURCE || undefined },
      "no-site": { type: "boolean", default: false },
    },
  });
  if (values.only !== undefined && !["tz", "geo", "ip", "names", "places"].includes(values.only)) {
    console.error(`build: --only must be "tz", "geo", "ip", "names" or "places", not "${values.only}"`);
    process.exit(2);
  }
  try {
    const m = await build({
      tzdbDir: values["tzdb-dir"]!,
      outDir: values.out!,
      only: values.only as BuildOptions["only"],
      ipSource: values["ip-source"],
      siteOut: values["no-site"] || values.only !== undefined ? undefined : DEFAULT_SITE_DIR,
    });
    console.log(`tzdb ${m.tzdb.version}: ${m.tzdb.names} names, ${m.tzdb.zones} zones -> ${m.tzdb.file} ` +
      `(${m.tzdb.bytes} bytes, ${m.tzdb.buildMs} ms)`);
    console.log(`geo: ${m.geo.source} ${m.geo.version}, boundaries ${m.geo.boundaryRelease}: ${m.geo.zones} zones, ` +
      `${m.geo.stats.cells} border cells -> ${m.geo.file.name} (${m.geo.file.bytes} bytes, ${m.geo.buildMs} ms)`);
    console.log(`ip: ${m.ip.source} ${m.ip.version}, data of ${m.ip.dataDate}: ${m.ip.ranges.v4} IPv4 and ` +
      `${m.ip.ranges.v6} IPv6 ranges -> ${m.ip.files.map((f) => `${f.name} (${f.bytes} bytes)`).join(", ")} (${m.ip.buildMs} ms)`);
    console.log(`names: CLDR ${m.names.version}: ${Object.entries(m.names.stats).map(([k, v]) => `${v} ${k}`).join(", ")} -> ` +
      `${m.names.file.name} (${m.names.file.bytes} bytes, ${m.names.buildMs} ms)`);
    console.log(`places: ${m.places.source} ${m.places.version}, data of ${m.places.dataDate}: ${m.places.places} places, ` +
      `${m.places.keys} keys -> ${m.places.file.name} (${m.places.file.bytes} bytes, ${m.places.buildMs} ms)`);
    const unknown = Object.entries(m.ip.unknownZones);
    if (unknown.length > 0) console.log(`ip: zones our tzdb lacks, stored as no location: ${unknown.map(([n, c]) => `${n} (${c})`).join(", ")}`);
    if (!values["no-site"] && values.only === undefined) console.log(`site: built into ${DEFAULT_SITE_DIR}`);
  } catch (error) {
    console.error(`build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
