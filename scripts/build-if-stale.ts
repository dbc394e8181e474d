// The first half of `bun run start` (package.json: this, then `bun server/process/main.ts`):
// builds generated/ (and the website) when missing or built from another source than
// data/tzdb holds now. It reads DATA_DIR, SITE_DIR and IP_SOURCE as the service does; the
// service itself validates its whole configuration when it starts.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { logError, logEvent } from "../server/core/log.ts";
import { build } from "./build.ts";
import { GEO_TZ_PACKAGE, GEO_TZ_VERSION } from "./geo/geo-release.ts";
import { ManifestError, readManifest } from "../server/formats/manifest.ts";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR, DEFAULT_TZDB_DIR } from "./paths.ts";
import { readTzdbSource } from "./tzdb/build-zones.ts";
import { releasesDirOf } from "./tzdb/history/build-history.ts";
import { parseIndex, RELEASES_INDEX } from "./tzdb/history/release-store.ts";
import { sha256Hex } from "./write-atomically.ts";
import { installedCldrVersion } from "./names/cldr-source.ts";
import { setFolderOf } from "./table-set-writer.ts";

/** Why generated/ must be rebuilt, or null when it is current. */
async function staleness(dataDir: string, siteDir: string): Promise<string | null> {
  let manifest;
  try {
    manifest = await readManifest(dataDir);
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
  if (!manifest) return "no manifest.json";
  if (!manifest.ip) return "no IP tables";
  if (manifest.geo.version !== GEO_TZ_VERSION) return `the coordinates table is from ${GEO_TZ_PACKAGE} ${manifest.geo.version}, not ${GEO_TZ_VERSION}`;
  if (manifest.names.version !== installedCldrVersion()) return `the names table is from CLDR ${manifest.names.version}, not ${installedCldrVersion()}`;
  if (!manifest.places) return "no places table";
  if (!manifest.history) return "no tzdb history table";
  for (const file of [manifest.tzdb.file, manifest.geo.file.name, ...manifest.ip.files.map((f) => f.name), manifest.names.file.name, manifest.places.file.name, manifest.history.file.name]) {
    if (!existsSync(join(setFolderOf(dataDir, manifest), file))) return `${file} is missing`;
  }
  if (!existsSync(join(siteDir, "index.html"))) return "the website is not built";
  const source = await readTzdbSource(DEFAULT_TZDB_DIR);
  if (sha256Hex(source.text) !== manifest.tzdb.sourceSha256) return "data/tzdb changed since the last build";
  const releases = join(releasesDirOf(DEFAULT_TZDB_DIR), RELEASES_INDEX);
  if (existsSync(releases) && parseIndex(readFileSync(releases, "utf8")).map((r) => r.release).join(",") !== manifest.history.releases.join(",")) {
    return "data/tzdb-releases changed since the last build";
  }
  if ((process.env.IP_SOURCE || undefined) !== undefined && !manifest.ip.source.includes(process.env.IP_SOURCE!)) {
    return "IP_SOURCE differs from the last build";
  }
  return null;
}

try {
  const dataDir = process.env.DATA_DIR?.trim() || DEFAULT_DATA_DIR;
  const siteDir = process.env.SITE_DIR?.trim() || DEFAULT_SITE_DIR;
  const reason = await staleness(dataDir, siteDir);
  if (reason) {
    logEvent("building", { reason, dataDir });
    await build({ tzdbDir: DEFAULT_TZDB_DIR, outDir: dataDir, ipSource: process.env.IP_SOURCE || undefined, siteOut: siteDir });
  }
} catch (error) {
  logError("build_failed", error);
  process.exit(1);
}
