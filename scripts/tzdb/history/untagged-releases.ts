// The releases before 2012e, which IANA's repository holds in its history but without tags.
// NEWS dates every release ("Release data2011k - 2011-09-20 17:54:03 -0400"); the repository's
// history up to 2012e is linear (converted from Arthur David Olson's SCCS files), so a
// release's source is the tree of the last commit authored at or before that instant.
// For most releases that commit is seconds before the stamp: the stamp is the release's
// newest file, its last check-in. Where the stamp is hours or days after any check-in, it
// says nothing about which check-ins the release held, and some were work in progress
// left out (the tree at data2010a's date has 2010b's half-done Mexico edits, with
// America/Ensenada both a Zone and a Link): such releases stay gaps. So do those whose
// commit is an older release's: the history was back-filled (2011l-2012a, made while the
// SCCS host was down, were checked in on 2012-03-03).

/**
 * A release's data name from its NEWS heading: "data2011k", "code2012c-data2012d", "96k",
 * "93" -> 2011k, 2012d, 96k, 93 (IANA's own spelling: two-digit years before 1996l);
 * "code2006h", "code96l" -> null (code only).
 */
export function dataReleaseOf(heading: string): string | null {
  return /^(?:code\w+-)?(?:data)?(\d{4}[a-z]|\d\d[a-z]?)$/.exec(heading)?.[1] ?? null;
}

export interface NewsRelease {
  /** The NEWS heading's name, e.g. "data2011k". */
  heading: string;
  /** The data release, e.g. "2011k". */
  release: string;
  /** Seconds since the epoch, from NEWS's timestamp. */
  at: number;
}

/** Every data release NEWS names, newest first, back to "Release 92". */
export function newsReleases(news: string): NewsRelease[] {
  const out: NewsRelease[] = [];
  for (const m of news.matchAll(/^Release (\S+) - (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) ([+-]\d\d)(\d\d)$/gm)) {
    const release = dataReleaseOf(m[1]!);
    if (release === null) continue;
    const at = Date.parse(`${m[2]}T${m[3]}${m[4]}:${m[5]}`) / 1000;
    out.push({ heading: m[1]!, release, at });
  }
  return out;
}

export interface Commit {
  hash: string;
  /** Author date, seconds since the epoch. */
  at: number;
}

/** The most a NEWS stamp may follow its release's last check-in (observed: 0 s to 20 min). */
export const MAX_STAMP_AFTER_CHECK_IN = 3600;

export interface FoundRelease extends NewsRelease {
  commit: Commit;
}

/**
 * Each release's commit: the last one (in history order, oldest first) authored at or before
 * its NEWS stamp. `commits` is the linear history oldest first.
 */
export function commitAtRelease(commits: readonly Commit[], at: number): Commit | null {
  let found: Commit | null = null;
  for (const c of commits) if (c.at <= at) found = c;
  return found;
}

/**
 * Splits releases (newest first) into those with a commit of their own and the gaps: a
 * release whose commit is the same as an older release's was not checked in before it was
 * made, so its source is not in the history.
 */
export function placeReleases(releases: readonly NewsRelease[], commits: readonly Commit[]): { found: FoundRelease[]; gaps: { release: string; reason: string }[] } {
  const found: FoundRelease[] = [];
  const gaps: { release: string; reason: string }[] = [];
  const oldestFirst = [...releases].reverse();
  const owner = new Map<string, string>(); // commit -> the oldest release on it
  for (const r of oldestFirst) {
    const commit = commitAtRelease(commits, r.at);
    if (commit === null) {
      gaps.push({ release: r.release, reason: "no commit before its NEWS date" });
      continue;
    }
    if (r.at - commit.at > MAX_STAMP_AFTER_CHECK_IN) {
      const hours = Math.round((r.at - commit.at) / 3600);
      gaps.push({ release: r.release, reason: `no check-in within an hour before its NEWS date (the last is ${hours} h before): which check-ins it held is not knowable` });
      continue;
    }
    const older = owner.get(commit.hash);
    if (older !== undefined) {
      gaps.push({ release: r.release, reason: `not in the history: the last commit before its NEWS date is ${older}'s (checked in later)` });
      continue;
    }
    owner.set(commit.hash, r.release);
    found.push({ ...r, commit });
  }
  return { found: found.reverse(), gaps: gaps.reverse() };
}
