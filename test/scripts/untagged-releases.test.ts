// The releases before IANA's first tag (2012e), placed in the repository's history by their
// NEWS dates (scripts/tzdb/history/untagged-releases.ts): every data release NEWS names from
// "Release 92" on is either served or listed as a gap, and each one served is the tree of a
// check-in made within the hour before its NEWS stamp, compiled from that tree.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { zicInputOfTag } from "../../scripts/tzdb-history-import.ts";
import { readGaps, readStoredReleases } from "../../scripts/tzdb/history/release-store.ts";
import { dataReleaseOf, MAX_STAMP_AFTER_CHECK_IN, newsReleases, placeReleases } from "../../scripts/tzdb/history/untagged-releases.ts";
import { compareReleases } from "../../scripts/tzdb/history/release-names.ts";
import { REPO_TZDB_DIR, testHistory } from "../support/history-table.ts";
import { mirrorGitDir } from "../support/third-party.ts";

const RELEASES_DIR = join(REPO_TZDB_DIR, "..", "tzdb-releases");
/** NEWS's first release (1992). */
const OLDEST_IMPORTED = "92";
const FIRST_TAG = "2012e";

function git(args: string[]): string {
  const run = Bun.spawnSync(["git", "--git-dir", mirrorGitDir("eggert/tz"), ...args]);
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** NEWS as the newest tag has it (2012e had none yet: NEWS began in 2013). */
function news(): string {
  const newest = git(["tag", "--list"]).split("\n").filter((t) => /^\d{4}[a-z]$/.test(t)).sort().at(-1)!;
  return git(["show", `${newest}:NEWS`]);
}

describe("releases before 2012e, from the repository's history", () => {
  test("every data release NEWS names from 92 to 2012d is served or listed in GET /tzdb's gaps", async () => {
    const history = await testHistory();
    const served = new Set(history.releases.map((r) => r.release));
    const gaps = new Set(history.gaps);
    const named = newsReleases(news()).map((r) => r.release)
      .filter((r) => compareReleases(r, OLDEST_IMPORTED) >= 0 && compareReleases(r, FIRST_TAG) < 0);
    expect(named.length).toBeGreaterThanOrEqual(200);
    expect(named).toContain("96k"); // the two-digit years of 1992-1996, as IANA named them
    expect(named.filter((r) => !served.has(r) && !gaps.has(r))).toEqual([]);
    expect(named.filter((r) => served.has(r) && gaps.has(r))).toEqual([]);
    // Most are found: the history's check-ins match most stamps to the second.
    expect(named.filter((r) => served.has(r)).length).toBeGreaterThan(80);
    // Those before 2006a too: 2000f-2005r, and 92c-2000e, whose data uses Rule year types.
    expect(named.filter((r) => served.has(r) && compareReleases(r, "2006a") < 0).length).toBeGreaterThan(70);
    // GET /tzdb lists the gaps in release order, two-digit years first.
    expect(history.gaps).toEqual([...history.gaps].sort(compareReleases));
    // Each gap has its reason committed.
    const reasons = new Map(readGaps(RELEASES_DIR).map((g) => [g.release, g.reason]));
    for (const r of named.filter((r) => gaps.has(r))) expect({ r, reason: reasons.get(r) }).toEqual({ r, reason: expect.any(String) });
    // Every release placed before 2000f uses Rule year types ("even", "odd", read through
    // the release's yearistype.sh): served, no gap for that reason.
    const before2000f = readStoredReleases(REPO_TZDB_DIR, RELEASES_DIR).filter((r) => compareReleases(r.release, "2000f") < 0);
    expect(before2000f.length).toBeGreaterThanOrEqual(40);
    expect(before2000f.filter((r) => !/^Rule\tAS\t1990\t(?:1994|max)\teven\t/m.test(r.text)).map((r) => r.release)).toEqual([]);
    expect(named.filter((r) => /year type/.test(reasons.get(r) ?? ""))).toEqual([]);
  }, 120_000); // builds every release's tables

  test("each served one is its commit's tree, checked in at most an hour before its NEWS stamp", () => {
    const stamps = new Map(newsReleases(news()).map((r) => [r.release, r.at]));
    const old = readStoredReleases(REPO_TZDB_DIR, RELEASES_DIR).filter((r) => compareReleases(r.release, FIRST_TAG) < 0);
    expect(old.length).toBeGreaterThan(80);
    // Three spread over the range keep the test quick (each extracts a tree); the sha256 of
    // every one is checked by the build already.
    for (const release of [old[0]!, old[Math.floor(old.length / 2)]!, old[old.length - 1]!]) {
      const commit = /\(([0-9a-f]{40})\)$/.exec(release.source)?.[1];
      expect(commit).toBeString();
      const checkedIn = Number(git(["show", "-s", "--format=%at", commit!]).trim());
      const stamp = stamps.get(release.release)!;
      expect(stamp - checkedIn).toBeGreaterThanOrEqual(0);
      expect(stamp - checkedIn).toBeLessThanOrEqual(MAX_STAMP_AFTER_CHECK_IN);
      expect(zicInputOfTag(mirrorGitDir("eggert/tz"), release.release, commit).text).toBe(release.text);
    }
  });

  test("a release whose stamp follows no check-in of its own, or only an older release's, is a gap", () => {
    const commits = [{ hash: "a", at: 1000 }, { hash: "b", at: 2000 }, { hash: "c", at: 900_000 }];
    const { found, gaps } = placeReleases([
      { heading: "2001d", release: "2001d", at: 900_010 }, // c, 10 s after: found
      { heading: "data2001c", release: "2001c", at: 500_000 }, // b, days after: not knowable
      { heading: "2001b", release: "2001b", at: 2030 }, // b again: after 2001a's check-in
      { heading: "2001a", release: "2001a", at: 2001 }, // b, 1 s after: found
    ], commits);
    expect(found.map((r) => [r.release, r.commit.hash])).toEqual([["2001d", "c"], ["2001a", "b"]]);
    expect(gaps.map((g) => g.release)).toEqual(["2001c", "2001b"]);
  });

  test("NEWS headings name data releases; code-only ones none", () => {
    expect(["data2011k", "code2012c-data2012d", "2011i", "code2006h", "96a", "data96i", "code96l", "code1996m-data1996l", "93"].map(dataReleaseOf))
      .toEqual(["2011k", "2012d", "2011i", null, "96a", "96i", null, "1996l", "93"]);
  });

  test("release names sort by when they were made: two-digit years before 1996l, a year's letterless first release before its b", () => {
    const shuffled = ["2006a", "96k", "93b", "1996l", "2012e", "93", "92c", "2026f", "95m"];
    expect([...shuffled].sort(compareReleases)).toEqual(["92c", "93", "93b", "95m", "96k", "1996l", "2006a", "2012e", "2026f"]);
  });
});

