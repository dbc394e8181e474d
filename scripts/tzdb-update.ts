// `bun run tzdb:update <tarball-or-tzdata.zi, path or URL>`: checks that the release
// compiles, shows its version, sha256 and what it changes, replaces data/tzdb/ and
// rebuilds generated/. On any failure data/tzdb/ is left exactly as it was. The release it
// replaces is kept in data/tzdb-releases/ (beside data/tzdb), as an edit from the new one.
// Flags: --tzdb-dir DIR (default data/tzdb), --out DIR (default $DATA_DIR or generated/),
// --no-build.

import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "./build.ts";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR, DEFAULT_TZDB_DIR } from "./paths.ts";
import { compileTzdb, EXCLUDED_NAMES } from "./tzdb/compile.ts";
import { compareReleases } from "./tzdb/compare-releases.ts";
import { loadRelease, TAB_FILES, type Release } from "./tzdb/release-source.ts";
import { releasesDirOf } from "./tzdb/history/build-history.ts";
import { makeDelta } from "./tzdb/history/release-delta.ts";
import { readStoredReleases, RELEASES_INDEX, writeStoredReleases, type StoredRelease } from "./tzdb/history/release-store.ts";
import { summaryOf } from "./tzdb/history/news-summary.ts";
import { readTabBundle } from "./tzdb/history/release-tabs.ts";
import { TZDATA_FILE, readTzdbSource } from "./tzdb/build-zones.ts";
import { sha256Hex } from "./write-atomically.ts";

export const VERSION_FILE = "VERSION";

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "tzdb-dir": { type: "string", default: DEFAULT_TZDB_DIR },
      out: { type: "string", default: process.env.DATA_DIR || DEFAULT_DATA_DIR },
      "no-build": { type: "boolean", default: false },
    },
  });
  if (positionals.length !== 1) {
    throw new Error("usage: bun run tzdb:update <tzdataYYYYx.tar.gz | tzdata.zi, a path or an http(s) URL>");
  }
  const tzdbDir = values["tzdb-dir"]!;
  const release = await loadRelease(positionals[0]!);
  console.log(`release ${release.version} (${release.kind}) from ${release.origin}`);
  console.log(`sha256 ${release.inputSha256}`);

  const next = compileTzdb([{ name: `${release.version}/${TZDATA_FILE}`, text: release.tzdataZi }], release.version);
  const served = [...next.source.targets.keys()].filter((n) => !EXCLUDED_NAMES.has(n)).length;
  console.log(`compiles: ${next.zones.size} zones, ${served} names`);

  if (existsSync(join(tzdbDir, TZDATA_FILE))) {
    const current = compileTzdb([await readTzdbSource(tzdbDir)]);
    const changes = compareReleases(current, next, Math.floor(Date.now() / 1000));
    console.log(`replacing ${current.version} with ${next.version}`);
    console.log(`names added (${changes.added.length}): ${changes.added.join(", ") || "none"}`);
    console.log(`names removed (${changes.removed.length}): ${changes.removed.join(", ") || "none"}`);
    console.log(`zones whose clocks differ within a year (${changes.changed.length}):`);
    for (const line of changes.changed) console.log(`  ${line}`);
  }

  // The old releases are read (and checked) while data/tzdb still holds the head of their chain.
  const releasesDir = releasesDirOf(tzdbDir);
  const kept = existsSync(join(releasesDir, RELEASES_INDEX)) ? readStoredReleases(tzdbDir, releasesDir) : null;
  replaceSourceDir(tzdbDir, release);
  if (kept !== null) {
    keepOldReleases(releasesDir, release, kept, tzdbDir);
    console.log(`${releasesDir} keeps ${kept.filter((r) => r.release !== release.version).length} older releases`);
  }
  console.log(`${tzdbDir} now holds ${release.version}`);
  if (!values["no-build"]) {
    // The default build also refreshes the website, whose pages name the tzdb release.
    const siteOut = values.out === DEFAULT_DATA_DIR ? DEFAULT_SITE_DIR : undefined;
    const manifest = await build({ tzdbDir, outDir: values.out!, only: "tz", siteOut });
    console.log(`rebuilt ${join(values.out!, manifest.tzdb.file)}: tzdb ${manifest.tzdb.version}, ${manifest.tzdb.names} names`);
  }
}

/** data/tzdb-releases/ with the new release at its head and every other one kept (one of the same name replaced). */
function keepOldReleases(releasesDir: string, release: Release, kept: StoredRelease[], tzdbDir: string): void {
  const date = /^Release \S+ - (\d{4}-\d\d-\d\d)/.exec(release.news)?.[1] ?? null;
  const head: StoredRelease = {
    release: release.version, date, form: "tzdata.zi+backzone", sha256: sha256Hex(release.tzdataZi),
    source: `${release.kind} ${release.origin} (sha256 ${release.inputSha256})`,
    summary: release.news ? summaryOf(release.news) : "no NEWS entry at hand (updated from a bare tzdata.zi)",
    text: release.tzdataZi, news: release.news,
    // Its tables as data/tzdb now holds them (a bare tzdata.zi keeps the previous release's).
    tabs: readTabBundle(tzdbDir),
  };
  writeStoredReleases(releasesDir, [head, ...kept.filter((r) => r.release !== release.version)], makeDelta);
}

/** Writes the new release beside the old directory, then swaps the two by rename. */
function replaceSourceDir(tzdbDir: string, release: Awaited<ReturnType<typeof loadRelease>>): void {
  const staging = join(dirname(tzdbDir), `.${basename(tzdbDir)}.new-${process.pid}`);
  const retired = join(dirname(tzdbDir), `.${basename(tzdbDir)}.old-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, TZDATA_FILE), release.tzdataZi);
  for (const name of TAB_FILES) {
    const text = release.tabFiles.get(name);
    // A bare tzdata.zi carries no .tab files: keep the previous release's.
    if (text !== undefined) writeFileSync(join(staging, name), text);
    else if (existsSync(join(tzdbDir, name))) copyFileSync(join(tzdbDir, name), join(staging, name));
  }
  if (existsSync(join(tzdbDir, "README.md"))) copyFileSync(join(tzdbDir, "README.md"), join(staging, "README.md"));
  writeFileSync(join(staging, VERSION_FILE), [
    `release: ${release.version}`,
    `input: ${release.kind} ${release.origin}`,
    `input-sha256: ${release.inputSha256}`,
    `tzdata.zi-sha256: ${sha256Hex(release.tzdataZi)}`,
    `updated: ${new Date().toISOString()}`,
    "",
  ].join("\n"));
  if (existsSync(tzdbDir)) renameSync(tzdbDir, retired);
  renameSync(staging, tzdbDir);
  rmSync(retired, { recursive: true, force: true });
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`tzdb:update failed, data left unchanged: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
