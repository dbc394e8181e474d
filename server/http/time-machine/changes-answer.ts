// What changed between two tzdb releases, as the routes and feeds answer it: per name, the
// UTC windows in which the releases disagree (tz/release-changes.ts), each with both
// answers; per release, every name that changed, the names added and removed.

import { daysFromCivil, SECONDS_PER_DAY } from "../../core/calendar.ts";
import { formatOffset } from "../../core/time-format.ts";
import type { LocalTimeType } from "../../formats/zone-model.ts";
import { changeWindows, type ChangeWindow } from "../../tz/release-changes.ts";
import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import type { Profile } from "../../time-object/time-object.ts";
import { formatUtc } from "../routes/transitions-answer.ts";
import type { Memo, MemoBounds } from "../caching/memo.ts";

/** The default range compared: 1800 through 2100, as the reference test checks it. */
export const DEFAULT_START = daysFromCivil(1800, 1, 1) * SECONDS_PER_DAY;
export const DEFAULT_END = daysFromCivil(2101, 1, 1) * SECONDS_PER_DAY;
/** At most this many windows in one answer; `next_start` tells where the rest begin. */
export const MAX_WINDOWS = 1000;

export interface ClockAnswer {
  utc_offset: string;
  abbreviation: string;
  dst: boolean;
}

export interface WindowEntry {
  start: string;
  end: string;
  /** The `from` release's answer in the window, then the `to` release's. */
  from: ClockAnswer;
  to: ClockAnswer;
}

const clockAnswer = (t: LocalTimeType): ClockAnswer => ({ utc_offset: formatOffset(t.utoff), abbreviation: t.abbr, dst: t.isdst });

/** A window's entry as objects: what windowsJson writes as text (the tests compare them, and the reference with it). */
export function windowEntry(w: ChangeWindow, profile: Profile): WindowEntry {
  return { start: formatUtc(w.start, profile), end: formatUtc(w.end, profile), from: clockAnswer(w.before), to: clockAnswer(w.after) };
}

/** A clock answer's JSON, written once per local time type (92c against 2026f: 15,203 windows of 280 types). */
const clockJson = new WeakMap<LocalTimeType, string>();

function clockAnswerJson(t: LocalTimeType): string {
  let json = clockJson.get(t);
  if (json === undefined) clockJson.set(t, (json = JSON.stringify(clockAnswer(t))));
  return json;
}

/**
 * `windows` as the JSON array of their entries, the same text JSON.stringify writes of
 * windowEntry's objects, without making them: a far pair's answer (3 MB) made five per window
 * to drop (formatUtc writes digits, "-", ":", "T" and "Z" only: no escapes).
 */
export function windowsJson(windows: readonly ChangeWindow[], profile: Profile): string {
  let json = "[";
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i]!;
    json += `${i === 0 ? "" : ","}{"start":"${formatUtc(w.start, profile)}","end":"${formatUtc(w.end, profile)}","from":${clockAnswerJson(w.before)},"to":${clockAnswerJson(w.after)}}`;
  }
  return `${json}]`;
}

/** The windows for one name present in both releases; [] when the releases store the same version of it. */
export function nameWindows(history: TzdbHistory, from: string, to: string, name: string, start: number, end: number): ChangeWindow[] {
  const va = history.versionOf(from, name);
  const vb = history.versionOf(to, name);
  if (va !== null && va === vb) return [];
  const a = history.table(from)!;
  const b = history.table(to)!;
  return changeWindows(a, a.resolve(name)!.zone, b, b.resolve(name)!.zone, start, end);
}

export interface ReleaseChanges {
  added: string[];
  removed: string[];
  /** Names present in both whose answers differ somewhere in [start, end). */
  changed: { name: string; windows: ChangeWindow[] }[];
}

/**
 * The pairs worked out, kept on the history thread: room for every consecutive pair (the
 * feeds and release pages: 15.8 MB for 211 releases) and a few far ones (up to 2.4 MB each).
 */
export const RELEASE_CHANGES_BOUNDS: MemoBounds = { maxEntries: 1024, maxKeyLength: 64, maxBytes: 24 * 1024 * 1024 };

/** What a ReleaseChanges holds, for its memo's budget: a window's record and two answers, a name. */
export const releaseChangesBytes = (c: ReleaseChanges) =>
  c.changed.reduce((sum, n) => sum + 64 + 2 * n.name.length + 96 * n.windows.length, 0) + 64 * (c.added.length + c.removed.length);

/** A pair and range's key in the memo of pairs worked out. */
export const changesKey = (since: string, release: string, start = DEFAULT_START, end = DEFAULT_END) => `${since}|${release}|${start}|${end}`;

/**
 * Every name that changed from `since` to `release` over [start, end) (a far pair walks 500
 * names, 25-250 ms). Kept in `memo` per pair and range when one is given: the feeds and the
 * release routes ask the same consecutive pairs again, and a far pair keeps up to 2 MB.
 */
export function releaseChanges(history: TzdbHistory, since: string, release: string, start = DEFAULT_START, end = DEFAULT_END, memo?: Memo<ReleaseChanges>): ReleaseChanges {
  const known = memo?.get(changesKey(since, release, start, end));
  if (known !== undefined) return known;
  const a = history.table(since)!;
  const b = history.table(release)!;
  const before = new Set(a.names);
  const after = new Set(b.names);
  const changes: ReleaseChanges = {
    added: b.names.filter((n) => !before.has(n)),
    removed: a.names.filter((n) => !after.has(n)),
    changed: [],
  };
  for (const name of history.namesDiffering(since, release)) {
    const windows = nameWindows(history, since, release, name, start, end);
    if (windows.length > 0) changes.changed.push({ name, windows });
  }
  memo?.set(changesKey(since, release, start, end), changes);
  return changes;
}

/** Unix seconds of a release's date (its NEWS date, 00:00Z); `fallback` when none is known. */
export function releaseInstant(history: TzdbHistory, release: string, fallback: number): number {
  const date = history.meta(release)?.date;
  if (!date) return fallback;
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return daysFromCivil(y, m, d) * SECONDS_PER_DAY;
}
