// `bun scripts/tzdb-history-import.ts [--mirror DIR]`: regenerates data/tzdb-releases/ from
// IANA's tz repository (a bare git clone with its release tags; default
// ../shared/mirrors/eggert+tz/repo). Every tag YYYYx becomes one release, its zic input
// made as data/tzdb's is wherever the release's own Makefile can: `make tzdata.zi` with
// backzone and PACKRATLIST=zone.tab (2022b on), and before that the default build's region
// files as zic read them, comments dropped. The default release
// (data/tzdb, which may be newer than any tag) heads the chain; NEWS comes from the newest tag.
// Releases older than the oldest tag, back to --oldest (default 92, NEWS's first), come from the
// history by their NEWS dates (tzdb/history/untagged-releases.ts); those it cannot place,
// go to gaps.tsv.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_TZDB_DIR, ROOT } from "./paths.ts";
import { sha256Hex } from "./write-atomically.ts";
import { makeDelta } from "./tzdb/history/release-delta.ts";
import { formatGaps, formatIndex, formatTabsIndex, GAPS_FILE, NEWS_FILE, RELEASES_INDEX, splitNews, TABS_INDEX, type ReleaseGap, type ReleaseRow } from "./tzdb/history/release-store.ts";
import { bundleTabs, readTabBundle, TAB_BUNDLE_FILES } from "./tzdb/history/release-tabs.ts";
import { newsReleases, placeReleases, type Commit } from "./tzdb/history/untagged-releases.ts";
import { compareReleases } from "./tzdb/history/release-names.ts";
import { parseTzSources } from "./tzdb/parse.ts";
import { resolveTzSource } from "./tzdb/resolve.ts";
import { horizonOf } from "./tzdb/compile.ts";
import { compileZone } from "./tzdb/transitions.ts";
import { repeatedRule } from "./tzdb/history/repeated-rules.ts";

/**
 * Why our zic reader or compiler refuses a release's input, or null when it takes it. Old
 * releases have typos that were fixed days later: those zic read in a way a reference can
 * check (SAVE "-", a copied Rule) are taken; the others are left out as gaps.
 */
function refusal(release: string, text: string): string | null {
  try {
    const parsed = parseTzSources([{ name: `${release}/tzdata.zi`, text }]);
    const repeated = repeatedRule(parsed);
    if (repeated !== null) return repeated;
    const source = resolveTzSource(parsed);
    const { horizonYear, firstYear } = horizonOf(source);
    for (const zone of source.zones) {
      const times = compileZone(zone, horizonYear, firstYear).transitions.map((t) => t.at);
      const i = times.findIndex((t, k) => k > 0 && t <= times[k - 1]!);
      if (i > 0) return `${zone.name} compiles to two changes at one instant (${new Date(times[i]! * 1000).toISOString()})`;
    }
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
import { summaryOf } from "./tzdb/history/news-summary.ts";

export const DEFAULT_RELEASES_DIR = join(ROOT, "data", "tzdb-releases");
const DEFAULT_MIRROR = resolve(ROOT, "..", "shared", "mirrors", "eggert+tz", "repo");
/** What zic read before tzdata.zi existed: the Makefile's YDATA, less what no one served. */
const REGION_FILES = ["africa", "antarctica", "asia", "australasia", "europe", "northamerica", "southamerica", "pacificnew", "etcetera", "backward"];

function git(mirror: string, args: string[]): string {
  const r = Bun.spawnSync(["git", `--git-dir=${mirror}`, ...args], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** Drops comments, trailing blanks and empty lines: zic reads the rest unchanged. */
function stripComments(text: string): string {
  return text.split("\n").map((l) => l.replace(/#.*$/, "").replace(/\s+$/, "")).filter((l) => l !== "").join("\n") + "\n";
}

/** One tag's zic input, the form it was made in, and its tab bundle (release-tabs.ts). */
export function zicInputOfTag(mirror: string, tag: string, rev = tag): { text: string; form: string; tabs: string } {
  const dir = mkdtempSync(join(tmpdir(), `zonetime-tag-${tag}-`));
  try {
    const archive = Bun.spawnSync(["sh", "-c", `git --git-dir="$1" archive "$2" | tar -x -C "$3"`, "sh", mirror, rev, dir], { stderr: "pipe" });
    if (archive.exitCode !== 0) throw new Error(`extracting ${tag}: ${archive.stderr.toString()}`);
    const makefile = readFileSync(join(dir, "Makefile"), "utf8");
    const present = new Set(readdirSync(dir));
    const tabs = bundleTabs(new Map(TAB_BUNDLE_FILES.filter((f) => present.has(f)).map((f) => [f, readFileSync(join(dir, f), "utf8")])));
    // Only releases whose Makefile knows PACKRATLIST make the same form as data/tzdb; the
    // tzdata.zi of 2017c-2018e also names rules "+", which zic and our parser now refuse.
    if (/^tzdata\.zi:/m.test(makefile) && /PACKRATLIST/.test(makefile)) {
      const args = ["make", "-s", `VERSION=${tag}`, "tzdata.zi", "PACKRATDATA=backzone", "PACKRATLIST=zone.tab"];
      const r = Bun.spawnSync(args, { cwd: dir, stdout: "pipe", stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`${tag}: make tzdata.zi failed: ${r.stderr.toString()}`);
      return { text: readFileSync(join(dir, "tzdata.zi"), "utf8"), form: "tzdata.zi+backzone", tabs };
    }
    const parts = REGION_FILES.filter((f) => present.has(f)).map((f) => stripComments(readFileSync(join(dir, f), "utf8")));
    return { text: `# version ${tag}\n${parts.join("")}`, form: "regions", tabs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mirror: { type: "string", default: DEFAULT_MIRROR },
      "tzdb-dir": { type: "string", default: DEFAULT_TZDB_DIR },
      out: { type: "string", default: DEFAULT_RELEASES_DIR },
      // NEWS's first release: everything before "Release 92" is the code's prehistory.
      oldest: { type: "string", default: "92" },
    },
  });
  const mirror = values.mirror!;
  const tags = git(mirror, ["tag", "--list"]).split("\n").filter((t) => /^\d{4}[a-z]$/.test(t)).sort().reverse();
  const defaultText = readFileSync(join(values["tzdb-dir"]!, "tzdata.zi"), "utf8");
  const defaultRelease = /^#\s*version\s+(\S+)/m.exec(defaultText)?.[1];
  if (!defaultRelease) throw new Error("data/tzdb/tzdata.zi names no release");
  const newsText = git(mirror, ["show", `${tags[0]}:NEWS`]);
  const allNews = splitNews(newsText);

  const out = values.out!;
  // Everything this script writes, and nothing else: README.md is written by hand.
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out)) if (f.endsWith(".diff") || [RELEASES_INDEX, NEWS_FILE, GAPS_FILE, TABS_INDEX].includes(f)) rmSync(join(out, f));
  const rows: ReleaseRow[] = [];
  const tabRows: { release: string; tabs: string }[] = [{ release: defaultRelease, tabs: readTabBundle(values["tzdb-dir"]!) }];
  const newsKept: string[] = [];
  const versionFile = readFileSync(join(values["tzdb-dir"]!, "VERSION"), "utf8");
  const defaultNews = allNews.get(defaultRelease);
  rows.push({
    release: defaultRelease,
    date: defaultNews ? /^Release \S+ - (\d{4}-\d\d-\d\d)/.exec(defaultNews)?.[1] ?? null : null,
    form: "tzdata.zi+backzone",
    sha256: sha256Hex(defaultText),
    source: `data/tzdb/tzdata.zi (${/^input: (.*)$/m.exec(versionFile)?.[1] ?? "see data/tzdb/VERSION"})`,
    summary: defaultNews ? summaryOf(defaultNews) : "no NEWS entry at hand (the release is newer than the repository's tags)",
  });
  if (defaultNews) newsKept.push(defaultNews);
  const oldestTag = tags[tags.length - 1]!;
  // The history before the oldest tag: linear, oldest commit first.
  const commits: Commit[] = git(mirror, ["log", "--reverse", "--format=%H %at", oldestTag]).trim().split("\n")
    .map((l) => ({ hash: l.split(" ")[0]!, at: Number(l.split(" ")[1]) }));
  const untagged = newsReleases(newsText)
    .filter((r) => compareReleases(r.release, oldestTag) < 0 && compareReleases(r.release, values.oldest!) >= 0);
  const { found, gaps } = placeReleases(untagged, commits);
  const gapRows: ReleaseGap[] = [...gaps];
  const sources = [
    ...tags.filter((t) => t < defaultRelease).map((tag) => ({ release: tag, rev: tag, source: `eggert/tz tag ${tag}` })),
    ...found.map((r) => ({ release: r.release, rev: r.commit.hash, source: `eggert/tz history at NEWS's "Release ${r.heading}" date: its last commit then` })),
  ];
  let newer = defaultText;
  let newerTabs = tabRows[0]!.tabs;
  for (const { release: tag, rev, source } of sources) {
    const { text, form, tabs } = zicInputOfTag(mirror, tag, rev);
    const refused = refusal(tag, text);
    if (refused !== null) {
      // Twin Rules that set another clock on one day (repeated-rules.ts; no release has them): gaps, not workarounds.
      gapRows.push({ release: tag, reason: `its source is refused by our zic reader: ${refused}` });
      console.log(`${tag}: left out: ${refused}`);
      continue;
    }
    writeFileSync(join(out, `${tag}.diff`), makeDelta(newer, text));
    writeFileSync(join(out, `${tag}.tabs.diff`), makeDelta(newerTabs, tabs));
    tabRows.push({ release: tag, tabs });
    const entry = allNews.get(tag);
    if (entry) newsKept.push(entry);
    const commit = git(mirror, ["rev-list", "-n", "1", rev]).trim();
    rows.push({
      release: tag,
      date: entry ? /^Release \S+ - (\d{4}-\d\d-\d\d)/.exec(entry)?.[1] ?? null : null,
      form,
      sha256: sha256Hex(text),
      source: `${source} (${commit})`,
      summary: entry ? summaryOf(entry) || "no summary in NEWS" : "no NEWS entry",
    });
    newer = text;
    newerTabs = tabs;
    console.log(`${tag}: ${form}, ${text.length} bytes`);
  }
  writeFileSync(join(out, RELEASES_INDEX), formatIndex(rows));
  writeFileSync(join(out, NEWS_FILE), `${newsKept.join("\n\n")}\n`);
  writeFileSync(join(out, TABS_INDEX), formatTabsIndex(tabRows));
  writeFileSync(join(out, GAPS_FILE), formatGaps(gapRows.sort((a, b) => compareReleases(b.release, a.release))));
  console.log(`${rows.length} releases written to ${out}`);
}

if (import.meta.main) await main();
