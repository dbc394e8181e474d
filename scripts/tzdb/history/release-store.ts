// data/tzdb-releases/: every older tzdb release we serve, stored compactly. The newest
// release is data/tzdb/tzdata.zi itself; each older one is a `diff -n` edit
// (release-delta.ts) from the release after it, so the chain is read newest to oldest.
//
//   releases.tsv   one row per release, newest first: release, date, form, sha256 of its
//                  zic input, where it came from, NEWS's one-line summary
//   <release>.diff the edit from the previous row's text to this release's
//   NEWS           IANA's NEWS entries of those releases, as IANA wrote them
//   tabs.tsv       one row per release, same order: release, sha256 of its tab bundle
//                  (release-tabs.ts: its zone1970.tab, zone.tab and iso3166.tab rows)
//   <release>.tabs.diff  the edit from the previous row's tab bundle to this release's

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../write-atomically.ts";
import { applyDelta } from "./release-delta.ts";
import { RELEASE_NAME } from "./release-names.ts";
import { readTabBundle } from "./release-tabs.ts";
import { dataReleaseOf } from "./untagged-releases.ts";

export const RELEASES_INDEX = "releases.tsv";
export const NEWS_FILE = "NEWS";
export const TABS_INDEX = "tabs.tsv";
/** Releases IANA made within the served range that are not served, one per line with why. */
export const GAPS_FILE = "gaps.tsv";

export interface ReleaseGap {
  release: string;
  reason: string;
}

export function formatGaps(gaps: readonly ReleaseGap[]): string {
  return ["# release\treason", ...gaps.map((g) => `${g.release}\t${g.reason.replace(/[\t\n]+/g, " ")}`), ""].join("\n");
}

/** The gaps listed in `dir`'s gaps.tsv; none when it is absent. */
export function readGaps(dir: string): ReleaseGap[] {
  const path = join(dir, GAPS_FILE);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((line, i) => {
    const [release, reason] = line.split("\t");
    if (!release || !RELEASE_NAME.test(release) || !reason) throw new Error(`${GAPS_FILE} line ${i + 2}: malformed row`);
    return { release, reason };
  });
}

export interface ReleaseRow {
  release: string;
  /** YYYY-MM-DD from NEWS; null where no NEWS entry is at hand. */
  date: string | null;
  /** How the zic input was made: "tzdata.zi+backzone" (as data/tzdb) or "regions" (the default build's files). */
  form: string;
  sha256: string;
  source: string;
  summary: string;
}

export interface StoredRelease extends ReleaseRow {
  text: string;
  /** Its tab bundle (release-tabs.ts); "" where none is stored. */
  tabs: string;
  /** The release's NEWS entry; "" where none is at hand. */
  news: string;
}

const COLUMNS = ["release", "date", "form", "sha256", "source", "summary"] as const;

export function formatIndex(rows: readonly ReleaseRow[]): string {
  const clean = (s: string) => s.replace(/[\t\n]+/g, " ");
  return [`# ${COLUMNS.join("\t")}`, ...rows.map((r) => [r.release, r.date ?? "-", r.form, r.sha256, clean(r.source), clean(r.summary)].join("\t")), ""].join("\n");
}

export function parseIndex(text: string): ReleaseRow[] {
  return text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((line, i) => {
    const f = line.split("\t");
    if (f.length !== COLUMNS.length || !RELEASE_NAME.test(f[0]!)) throw new Error(`${RELEASES_INDEX} line ${i + 2}: malformed row`);
    return { release: f[0]!, date: f[1] === "-" ? null : f[1]!, form: f[2]!, sha256: f[3]!, source: f[4]!, summary: f[5]! };
  });
}

/** NEWS entries by release ("data2011k" is 2011k): each begins at a "Release X - date" line. */
export function splitNews(news: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = news.split(/^(?=Release \S+ - )/m);
  for (const part of parts) {
    const m = /^Release (\S+) - /.exec(part);
    if (m) out.set(dataReleaseOf(m[1]!) ?? m[1]!, part.trimEnd());
  }
  return out;
}

/** Every stored release, newest (the default, data/tzdb) first, each checked against its sha256. */
export function readStoredReleases(tzdbDir: string, releasesDir: string): StoredRelease[] {
  const newest = readFileSync(join(tzdbDir, "tzdata.zi"), "utf8");
  const indexPath = join(releasesDir, RELEASES_INDEX);
  if (!existsSync(indexPath)) throw new Error(`${indexPath} is missing: see data/tzdb-releases/README.md`);
  const rows = parseIndex(readFileSync(indexPath, "utf8"));
  const news = existsSync(join(releasesDir, NEWS_FILE)) ? splitNews(readFileSync(join(releasesDir, NEWS_FILE), "utf8")) : new Map<string, string>();
  const tabsPath = join(releasesDir, TABS_INDEX);
  const tabSums = existsSync(tabsPath) ? parseTabsIndex(readFileSync(tabsPath, "utf8")) : null;
  const out: StoredRelease[] = [];
  let text = newest;
  let tabs = readTabBundle(tzdbDir);
  for (const [i, row] of rows.entries()) {
    if (i > 0) text = applyDelta(text, readFileSync(join(releasesDir, `${row.release}.diff`), "utf8"));
    if (sha256Hex(text) !== row.sha256) {
      throw new Error(`${row.release}: its zic input does not match the sha256 in ${RELEASES_INDEX}` +
        (i === 0 ? " (data/tzdb changed without bun run tzdb:update?)" : ""));
    }
    if (tabSums !== null) {
      const sum = tabSums.get(row.release);
      if (sum === undefined) throw new Error(`${row.release}: no row in ${TABS_INDEX}`);
      if (i > 0) tabs = applyDelta(tabs, readFileSync(join(releasesDir, `${row.release}.tabs.diff`), "utf8"));
      if (sha256Hex(tabs) !== sum) throw new Error(`${row.release}: its tab bundle does not match the sha256 in ${TABS_INDEX}`);
    }
    // Without tabs.tsv only the head (data/tzdb) has its tables.
    out.push({ ...row, text, tabs: tabSums === null && i > 0 ? "" : tabs, news: news.get(row.release) ?? "" });
  }
  return out;
}

export function formatTabsIndex(releases: readonly { release: string; tabs: string }[]): string {
  return ["# release\ttab bundle sha256", ...releases.map((r) => `${r.release}\t${sha256Hex(r.tabs)}`), ""].join("\n");
}

function parseTabsIndex(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).forEach((line, i) => {
    const [release, sum] = line.split("\t");
    if (!release || !RELEASE_NAME.test(release) || !sum || !/^[0-9a-f]{64}$/.test(sum)) throw new Error(`${TABS_INDEX} line ${i + 2}: malformed row`);
    sums.set(release, sum);
  });
  return sums;
}

/**
 * Writes the whole store for `releases` (newest, the one data/tzdb holds, first): each
 * older one as the edit from the one before it, the index and the NEWS entries.
 */
export function writeStoredReleases(releasesDir: string, releases: readonly StoredRelease[], makeDelta: (newer: string, older: string) => string): void {
  mkdirSync(releasesDir, { recursive: true });
  for (const name of readdirSync(releasesDir)) if (name.endsWith(".diff")) rmSync(join(releasesDir, name));
  releases.forEach((r, i) => {
    if (i === 0) return;
    writeFileSync(join(releasesDir, `${r.release}.diff`), makeDelta(releases[i - 1]!.text, r.text));
    writeFileSync(join(releasesDir, `${r.release}.tabs.diff`), makeDelta(releases[i - 1]!.tabs, r.tabs));
  });
  writeFileSync(join(releasesDir, RELEASES_INDEX), formatIndex(releases));
  writeFileSync(join(releasesDir, TABS_INDEX), formatTabsIndex(releases));
  writeFileSync(join(releasesDir, NEWS_FILE), `${releases.map((r) => r.news).filter((n) => n !== "").join("\n\n")}\n`);
}
