// The time machine's answers that walk release tables (what releases changed, the feeds),
// as the history thread makes them (history-thread.ts): a job names the answer, already
// validated by its route (tzdb-routes.ts), and its body comes back as a Blob. A Blob crosses
// to the serving thread without a copy (an 8 MB one held it 0.5 ms; the same bytes as an
// ArrayBuffer moved across, then made a Blob or a Response there, 3-4 ms: the copy's new pages).

import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import type { Profile } from "../../time-object/time-object.ts";
import type { Memo } from "../caching/memo.ts";
import { formatUtc } from "../routes/transitions-answer.ts";
import { DEFAULT_END, DEFAULT_START, MAX_WINDOWS, nameWindows, releaseChanges, windowsJson, type ReleaseChanges } from "./changes-answer.ts";
import { atom, jsonFeed, nameFeed, releasesFeed } from "./feeds.ts";

/** An answer to make: plain data, as it crosses to the history thread. */
export type HistoryJob =
  | { kind: "release_changes"; release: string; since: string | null; now: number; profile: Profile }
  | { kind: "name_changes"; name: string; from: string; to: string; start: number; end: number; profile: Profile }
  | { kind: "releases_feed"; format: FeedFormat; builtAt: number }
  | { kind: "name_feed"; format: FeedFormat; name: string; builtAt: number };

export type FeedFormat = "atom" | "json";

const encoder = new TextEncoder();

/** The job's body. `memo`: the pairs of releases already worked out (the feeds and release routes ask the same ones). */
export function historyAnswer(history: TzdbHistory, memo: Memo<ReleaseChanges>, job: HistoryJob): Blob {
  switch (job.kind) {
    case "release_changes":
      return releaseChangesBody(history, memo, job.release, job.since, job.now, job.profile);
    case "name_changes":
      return new Blob([nameChangesBody(history, job.from, job.to, job.name, job.start, job.end, job.profile)]);
    case "releases_feed": {
      const feed = releasesFeed(history, job.builtAt, memo);
      return new Blob([job.format === "atom" ? atom(feed) : jsonFeed(feed)]);
    }
    case "name_feed": {
      const feed = nameFeed(history, job.name, job.builtAt);
      return new Blob([job.format === "atom" ? atom(feed) : jsonFeed(feed)]);
    }
  }
}

/** `/tzdb/{release}/changes`: names whose windows reach past `now` first. */
function releaseChangesBody(history: TzdbHistory, memo: Memo<ReleaseChanges>, release: string, since: string | null, now: number, profile: Profile): Blob {
  const meta = history.meta(release)!;
  const changes = since === null ? { added: [], removed: [], changed: [] } : releaseChanges(history, since, release, DEFAULT_START, DEFAULT_END, memo);
  const order = changes.changed.map((c) => ({ change: c, future: c.windows.some((w) => w.end > now) }));
  order.sort((a, b) => (a.future === b.future ? (a.change.name < b.change.name ? -1 : 1) : a.future ? -1 : 1));
  const head = JSON.stringify({
    release, since, date: meta.date, summary: meta.summary,
    range: { start: formatUtc(DEFAULT_START, profile), end: formatUtc(DEFAULT_END, profile) },
    added: changes.added, removed: changes.removed,
  });
  // A far pair's answer is 8 MB of windows: each name's entry encoded on its own (one string
  // of it all took 25 ms to join and encode), the body a Blob of the parts.
  const parts: Uint8Array[] = [encoder.encode(`${head.slice(0, -1)},"changed":[`)];
  order.forEach(({ change, future }, i) => {
    parts.push(encoder.encode(`${i === 0 ? "" : ","}{"timezone":${JSON.stringify(change.name)},"future":${future},"windows":${windowsJson(change.windows.slice(0, MAX_WINDOWS), profile)}}`));
  });
  parts.push(encoder.encode(`],${JSON.stringify({ news: meta.news }).slice(1)}`));
  return new Blob(parts);
}

/** `/timezone/{name}/changes`: where `from` and `to` disagree about `name` in [start, end). */
function nameChangesBody(history: TzdbHistory, from: string, to: string, name: string, start: number, end: number, profile: Profile): string {
  const windows = nameWindows(history, from, to, name, start, end);
  const head = JSON.stringify({ timezone: name, from, to, start: formatUtc(start, profile), end: formatUtc(end, profile) });
  const nextStart = windows.length > MAX_WINDOWS ? formatUtc(windows[MAX_WINDOWS]!.start, profile) : null;
  return `${head.slice(0, -1)},"windows":${windowsJson(windows.slice(0, MAX_WINDOWS), profile)},"next_start":${JSON.stringify(nextStart)}}`;
}
