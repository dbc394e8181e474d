// The site's release pages and each zone page's history of releases, from the same
// generated/tzdb-history.bin the service answers `?tzdb=` and /tzdb/{release}/changes from:
// per release, what it changed since the one before (names added, removed, and each changed
// name's windows, summarised in runs); per name, the releases that changed it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { daysFromCivil, SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import { formatOffset } from "../../server/core/time-format.ts";
import { HISTORY_FILE } from "../../server/formats/history-format.ts";
import type { LocalTimeType } from "../../server/formats/zone-model.ts";
import { ZONES_FILE } from "../../server/formats/zones-format.ts";
import { changeWindows, type ChangeWindow } from "../../server/tz/release-changes.ts";
import { TzdbHistory } from "../../server/tz/tzdb-history.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";

/** The range compared, as /tzdb/{release}/changes compares it: 1800 through 2100. */
const START = daysFromCivil(1800, 1, 1) * SECONDS_PER_DAY;
const END = daysFromCivil(2101, 1, 1) * SECONDS_PER_DAY;
/** Runs listed per changed name; the rest are counted. */
const RUNS_SHOWN = 3;

export interface ChangedName {
  name: string;
  /** Whether some window ends after the release date: the release changed its present or future. */
  future: boolean;
  /** One line per run of back-to-back windows, e.g. "from 2026-11-01 on: -07 MST, not -08 PST / -07 PDT". */
  runs: string[];
  /** Runs left out of `runs`. */
  more: number;
}

export interface ReleasePage {
  release: string;
  date: string | null;
  summary: string;
  news: string;
  /** The release compared with (the one before); null for the oldest. */
  since: string | null;
  added: string[];
  removed: string[];
  changed: ChangedName[];
}

export interface ReleasePages {
  default: string;
  gaps: readonly string[];
  /** Newest first. */
  releases: ReleasePage[];
  /**
   * Per name, the releases that changed it, newest first: "2026f: from 2026-11-01 to 2027-11-07:
   * -04 CDT, not -05 CST". `line` is the stretch that matters most: the first that reaches past
   * the release's date when there is one (what the release changed of the present or future),
   * else the first. `kind`: the release changed the name's present or future, only its past,
   * or added the name.
   */
  byName: Record<string, { release: string; line: string; kind: "future" | "past" | "added" }[]>;
}

/** An instant to the minute in UTC: windows begin and end at clock changes, often within one day. */
const day = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
const state = (t: LocalTimeType) => `${formatOffset(t.utoff).replace(/:00$/, "")} ${t.abbr}${t.isdst ? " (DST)" : ""}`;
/** The states of a run, each once; a long run of them (a zone's whole early history) as its first two and last. */
function distinct(list: string[]): string {
  const states = [...new Set(list)];
  return states.length <= 4 ? states.join(" / ") : `${states.slice(0, 2).join(" / ")} / … / ${states.at(-1)} (${states.length} in all)`;
}
/** "(and 3 more stretches)", after the runs shown. */
export const moreRuns = (n: number) => (n > 0 ? ` (and ${n} more ${n === 1 ? "stretch" : "stretches"})` : "");

/** Back-to-back windows as one run each. */
function groupRuns(windows: readonly ChangeWindow[]): ChangeWindow[][] {
  const runs: ChangeWindow[][] = [];
  for (const w of windows) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last[last.length - 1]!.end === w.start) last.push(w);
    else runs.push([w]);
  }
  return runs;
}

/** Back-to-back windows as one run each: when, what the newer release says, what the older said. */
export function describeRuns(windows: readonly ChangeWindow[]): string[] {
  return groupRuns(windows).map((run) => {
    const start = run[0]!.start;
    const end = run[run.length - 1]!.end;
    const when = start <= START ? (end >= END ? "always" : `until ${day(end)}`) : end >= END ? `from ${day(start)} on` : `from ${day(start)} to ${day(end)}`;
    return `${when}: ${distinct(run.map((w) => state(w.after)))}, not ${distinct(run.map((w) => state(w.before)))}`;
  });
}

export function releasePagesData(dataDir: string): ReleasePages {
  const zones = ZoneTable.fromBuffer(readFileSync(join(dataDir, ZONES_FILE)).buffer as ArrayBuffer, ZONES_FILE);
  const history = TzdbHistory.fromBuffer(readFileSync(join(dataDir, HISTORY_FILE)).buffer as ArrayBuffer, HISTORY_FILE, zones);
  const byName: ReleasePages["byName"] = {};
  const releases = history.releases.map((meta): ReleasePage => {
    const since = history.previous(meta.release);
    const page: ReleasePage = { release: meta.release, date: meta.date, summary: meta.summary, news: meta.news, since, added: [], removed: [], changed: [] };
    if (since === null) return page;
    const [a, b] = [history.table(since)!, history.table(meta.release)!];
    const before = new Set(a.names);
    const after = new Set(b.names);
    page.added = b.names.filter((n) => !before.has(n));
    page.removed = a.names.filter((n) => !after.has(n));
    // A release with no date at hand (newer than the repository's tags): the build's day stands in.
    const released = meta.date === null ? Date.now() / 1000 : Date.parse(`${meta.date}T00:00:00Z`) / 1000;
    for (const name of b.names) {
      if (!before.has(name) || history.versionOf(since, name) === history.versionOf(meta.release, name)) continue;
      const windows = changeWindows(a, a.resolve(name)!.zone, b, b.resolve(name)!.zone, START, END);
      if (windows.length === 0) continue;
      const runs = describeRuns(windows);
      const future = windows.some((w) => w.end > released);
      page.changed.push({ name, future, runs: runs.slice(0, RUNS_SHOWN), more: Math.max(0, runs.length - RUNS_SHOWN) });
      // The zone page's one line: the first stretch reaching past the release's date, else the first.
      const shown = Math.max(0, groupRuns(windows).findIndex((run) => run[run.length - 1]!.end > released));
      (byName[name] ??= []).push({ release: meta.release, line: runs[shown]! + moreRuns(runs.length - 1), kind: future ? "future" : "past" });
    }
    for (const name of page.added) (byName[name] ??= []).push({ release: meta.release, line: "the name first appears", kind: "added" });
    return page;
  });
  return { default: history.defaultRelease, gaps: history.gaps, releases, byName };
}
