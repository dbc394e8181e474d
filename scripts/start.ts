// `bun run start`: builds generated/ (and the website) when missing or built from another source
// than data/tzdb holds now, then starts the service (see server/config.ts for the
// environment it reads).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { readConfig, ConfigError } from "../server/config.ts";
import { logError, logEvent } from "../server/log.ts";
import { runService } from "../server/run.ts";
import { build } from "./build.ts";
import { GEO_TZ_PACKAGE, GEO_TZ_VERSION } from "./geo/geo-release.ts";
import { readManifest } from "./manifest.ts";
import { DEFAULT_TZDB_DIR } from "./paths.ts";
import { readTzdbSource } from "./tzdb/build-zones.ts";
import { sha256Hex } from "./write-atomically.ts";

/** Why generated/ must be rebuilt, or null when it is current. */
async function staleness(dataDir: string, siteDir: string): Promise<string | null> {
  const manifest = await readManifest(dataDir);
  if (!manifest) return "no manifest.json";
  if (!manifest.ip) return "no IP tables";
  if (!manifest.geo) return "no coordinates table";
  if (manifest.geo.version !== GEO_TZ_VERSION) return `the coordinates table is from ${GEO_TZ_PACKAGE} ${manifest.geo.version}, not ${GEO_TZ_VERSION}`;
  for (const file of [manifest.tzdb.file, manifest.geo.file.name, ...manifest.ip.files.map((f) => f.name)]) {
    if (!existsSync(join(dataDir, file))) return `${file} is missing`;
  }
  if (!existsSync(join(siteDir, "index.html"))) return "the website is not built";
  const source = await readTzdbSource(DEFAULT_TZDB_DIR);
  if (sha256Hex(source.text) !== manifest.tzdb.sourceSha256) return "data/tzdb changed since the last build";
  if ((process.env.IP_SOURCE || undefined) !== undefined && !manifest.ip.source.includes(process.env.IP_SOURCE!)) {
    return "IP_SOURCE differs from the last build";
  }
  return null;
}

try {
  const config = readConfig(process.env);
  const reason = await staleness(config.dataDir, config.siteDir);
  if (reason) {
    logEvent("building", { reason, dataDir: config.dataDir });
    await build({ tzdbDir: DEFAULT_TZDB_DIR, outDir: config.dataDir, ipSource: process.env.IP_SOURCE || undefined, siteOut: config.siteDir });
  }
  await runService(config);
} catch (error) {
  logError(error instanceof ConfigError ? "bad_configuration" : "start_failed", error);
  process.exit(1);
}
