// `bun run build`: compiles the pinned sources into generated/ (zones.bin, geo.bin, ip4.bin,
// ip6.bin, names.bin, places.bin, manifest.json). Flags: --tzdb-dir DIR (default data/tzdb), --out DIR (default
// $DATA_DIR or generated/), --only tz|geo|ip|names|places (the other parts are kept from the last build),
// --ip-source FILE (default $IP_SOURCE, else the embedded DB-IP City Lite): a MaxMind
// GeoIP2/GeoLite2 City database to compile instead, --no-site (skip the website).

import { parseArgs } from "node:util";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR, DEFAULT_TZDB_DIR } from "./paths.ts";
import { previousManifest, type Manifest } from "./manifest.ts";
import { beginSet, type KeptFile } from "./table-set-writer.ts";
import { buildZones } from "./tzdb/build-zones.ts";
import { buildHistory } from "./tzdb/history/build-history.ts";
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

const BUILD_PARTS = ["tz", "geo", "ip", "names", "places"] as const;
type BuildPart = (typeof BUILD_PARTS)[number];

export interface BuildOptions {
  tzdbDir: string;
  outDir: string;
  only?: BuildPart;
  /** A MaxMind City mmdb to compile instead of the embedded DB-IP data. */
  ipSource?: string;
  /** Also build the website into this folder (the CLI: site/dist unless --no-site). */
  siteOut?: string;
}

/**
 * Builds a complete new set of tables beside the serving one and switches to it in one
 * rename (scripts/table-set-writer.ts); on any failure the serving set is left as it was
 * and the new one removed.
 */
export async function build(options: BuildOptions): Promise<Manifest> {
  const builtAt = new Date().toISOString();
  const previous = await previousManifest(options.outDir);
  const set = beginSet(options.outDir, previous, builtAt);
  let manifest: Manifest;
  try {
    const out = set.dir;
    const keep = (part: BuildPart) => options.only !== undefined && options.only !== part;
    // A part kept from the serving set only if every one of its files still matches the old
    // manifest (length and sha256); a damaged one is rebuilt instead, so what is committed loads.
    const kept = <T>(part: BuildPart, value: T | undefined, files: () => KeptFile[]): T | undefined => {
      if (!keep(part) || value === undefined) return undefined;
      for (const file of files()) {
        const damaged = set.keep(file);
        if (damaged !== null) {
          console.warn(`build: rebuilding ${part}, not keeping it: ${damaged}`);
          return undefined;
        }
      }
      return value;
    };
    const keptTz = kept("tz", previous?.tzdb, () => [{ name: previous!.tzdb.file, bytes: previous!.tzdb.bytes, sha256: previous!.tzdb.sha256 }]);
    const tzdb = keptTz ?? await buildZones(options.tzdbDir, out, builtAt);
    // Every older release with it: rebuilt whenever tz is.
    const history = kept("tz", keptTz ? previous?.history : undefined, () => [previous!.history.file]) ?? await buildHistory(options.tzdbDir, out, builtAt);
    // The coordinates and IP tables map onto the names our own tz table serves.
    const zones = await ZoneTable.load(join(out, ZONES_FILE));
    // The IP source is opened first: a bad one fails the build before the long geo step.
    const keptIp = kept("ip", previous?.ip, () => previous!.ip.files);
    const ipSource = keptIp ? null : options.ipSource ? await maxmindSource(options.ipSource) : await dbipSource();
    const keptGeo = kept("geo", previous?.geo, () => [previous!.geo.file]);
    const geo = keptGeo ?? await buildGeo(out, new Set(zones.names), builtAt);
    const ip = keptIp ?? await buildIp(ipSource!, zoneAtCoordinates(GeoTable.load(join(out, GEO_FILE))), out, new Set(zones.names), builtAt);
    // Names follow the release's names and zone.tab: rebuilt whenever tz is.
    const names = kept("names", keptTz ? previous?.names : undefined, () => [previous!.names.file]) ?? await buildNames(options.tzdbDir, out, zones, builtAt);
    // Places take their zones from geo.bin: rebuilt whenever it is, so they always agree.
    const places = kept("places", keptGeo ? previous?.places : undefined, () => [previous!.places.file])
      ?? buildPlaces(out, options.tzdbDir, GeoTable.load(join(out, GEO_FILE)), new Set(zones.names), builtAt);
    manifest = { manifestVersion: 1, builtAt, tzdb, geo, ip, names, places, history };
    set.commit(manifest, [tzdb.file, geo.file.name, ...ip.files.map((f) => f.name), names.file.name, places.file.name, history.file.name]);
  } catch (error) {
    set.abandon();
    throw error;
  }
  if (options.siteOut) await buildSite(options.outDir, options.siteOut);
  return manifest;
}

/** A failure as an operator needs it: what happened, and that the serving set is untouched. */
export function describeFailure(error: unknown, outDir: string): string {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const untouched = `the tables in ${outDir} are as they were (the new set was removed)`;
  if (code === "ENOSPC") return `no space left on the device of ${outDir} (${message}): a build needs room for a second set beside the serving one; ${untouched}`;
  if (code === "EROFS" || code === "EACCES" || code === "EPERM") return `${outDir} cannot be written (${message}); ${untouched}`;
  return `${message}; ${untouched}`;
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
  if (values.only !== undefined && !(BUILD_PARTS as readonly string[]).includes(values.only)) {
    console.error(`build: --only must be one of ${BUILD_PARTS.map((p) => `"${p}"`).join(", ")}, not "${values.only}"`);
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
    console.log(`tzdb history: ${m.history.releases.length} releases (gaps: ${m.history.gaps.join(", ") || "none"}), ${m.history.names} names, ` +
      `${m.history.versions} versions -> ${m.history.file.name} (${m.history.file.bytes} bytes, ${m.history.buildMs} ms)`);
    const unknown = Object.entries(m.ip.unknownZones);
    if (unknown.length > 0) console.log(`ip: zones our tzdb lacks, stored as no location: ${unknown.map(([n, c]) => `${n} (${c})`).join(", ")}`);
    if (!values["no-site"] && values.only === undefined) console.log(`site: built into ${DEFAULT_SITE_DIR}`);
  } catch (error) {
    console.error(`build failed: ${describeFailure(error, values.out!)}`);
    process.exit(1);
  }
}
