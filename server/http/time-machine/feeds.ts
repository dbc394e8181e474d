// The release feeds: one entry per tzdb release served (newest first), listing the names
// whose present or future it changed (windows ending after the release's date); and per
// name, one entry per release that changed its answers. Atom (RFC 4287) and JSON Feed 1.1,
// from the same entries. Links are relative to the service (each entry links to its
// release's page on the website, /releases/{release}/), and carry no type: feed readers take only an
// untyped or HTML alternate link as the entry's link.

import { formatDateTime } from "../../core/time-format.ts";
import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import { nameWindows, releaseChanges, releaseInstant, DEFAULT_END, DEFAULT_START, type ReleaseChanges } from "./changes-answer.ts";
import type { Memo } from "../caching/memo.ts";

export const ATOM_TYPE = "application/atom+xml; charset=utf-8";
export const JSON_FEED_TYPE = "application/feed+json; charset=utf-8";
/** Atom ids must be absolute IRIs that never change: tag URIs (RFC 4151) under a name nobody else uses. */
const TAG = "tag:zonetime.invalid,2026:";

export interface FeedEntry {
  id: string;
  title: string;
  /** Where the entry's page is: the release's page on the website. */
  link: string;
  updated: string;
  summary: string;
  content: string;
}

export interface Feed {
  id: string;
  title: string;
  self: string;
  home: string;
  entries: FeedEntry[];
}

const iso = (seconds: number) => `${formatDateTime(seconds)}Z`;

/** The release's date, or the table's build time for a release whose date we lack. */
function updatedOf(history: TzdbHistory, release: string, builtAt: number): string {
  return iso(releaseInstant(history, release, builtAt));
}

/** A release's page on the website (site/src/pages/releases/), which /tzdb/{release}/changes answers as JSON. */
export const releasePage = (release: string) => `/releases/${release}/`;

export function releasesFeed(history: TzdbHistory, builtAt: number, memo?: Memo<ReleaseChanges>): Feed {
  const entries: FeedEntry[] = [];
  for (const meta of history.releases) {
    const since = history.previous(meta.release);
    const at = releaseInstant(history, meta.release, builtAt);
    let names: string[] = [];
    if (since !== null) {
      const changes = releaseChanges(history, since, meta.release, DEFAULT_START, DEFAULT_END, memo);
      names = changes.changed.filter((c) => c.windows.some((w) => w.end > at)).map((c) => c.name);
      names.push(...changes.added.map((n) => `${n} (new)`));
    }
    entries.push({
      id: `${TAG}tzdb/${meta.release}`,
      title: `tzdb ${meta.release}`,
      link: releasePage(meta.release),
      updated: updatedOf(history, meta.release, builtAt),
      summary: meta.summary,
      content: since === null ? `${meta.summary}\n\nThe oldest release served.`
        : `${meta.summary}\n\nNames whose present or future ${meta.release} changed since ${since} (${names.length}): ${names.join(", ") || "none"}.`,
    });
  }
  return { id: `${TAG}tzdb`, title: "tzdb releases (zonetime)", self: "/tzdb/feed.atom", home: "/tzdb", entries };
}

/** One entry per release that changed this name's answers (or added it), newest first. */
export function nameFeed(history: TzdbHistory, name: string, builtAt: number): Feed {
  const entries: FeedEntry[] = [];
  for (const meta of history.releases) {
    const since = history.previous(meta.release);
    if (since === null || history.versionOf(meta.release, name) === null) continue;
    let content: string;
    if (history.versionOf(since, name) === null) {
      content = `${name} is new in ${meta.release}.`;
    } else {
      const windows = nameWindows(history, since, meta.release, name, DEFAULT_START, DEFAULT_END);
      if (windows.length === 0) continue;
      const first = windows[0]!;
      content = `${meta.release} answers differently from ${since} in ${windows.length} window(s) of 1800-2100, ` +
        `the first from ${iso(first.start)} to ${iso(first.end)}: ${first.before.abbr} (${first.before.utoff} s) in ${since}, ` +
        `${first.after.abbr} (${first.after.utoff} s) in ${meta.release}.`;
    }
    entries.push({
      id: `${TAG}timezone/${name}/${meta.release}`,
      title: `${name} in tzdb ${meta.release}`,
      link: releasePage(meta.release),
      updated: updatedOf(history, meta.release, builtAt),
      summary: meta.summary,
      content,
    });
  }
  return { id: `${TAG}timezone/${name}`, title: `${name}: tzdb releases that changed it (zonetime)`, self: `/timezone/${name}/feed.atom`, home: `/timezone/${name}/changes`, entries };
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
  // Characters XML 1.0 forbids (NEWS is plain text, but never trust it to stay so).
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

export function atom(feed: Feed): string {
  const updated = feed.entries.reduce((latest, e) => (e.updated > latest ? e.updated : latest), "1970-01-01T00:00:00Z");
  const entries = feed.entries.map((e) => `  <entry>
    <id>${xml(e.id)}</id>
    <title>${xml(e.title)}</title>
    <link rel="alternate" href="${xml(e.link)}"/>
    <updated>${e.updated}</updated>
    <summary>${xml(e.summary)}</summary>
    <content type="text">${xml(e.content)}</content>
  </entry>
`).join("");
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(feed.id)}</id>
  <title>${xml(feed.title)}</title>
  <updated>${updated}</updated>
  <author><name>zonetime</name></author>
  <link rel="self" type="application/atom+xml" href="${xml(feed.self)}"/>
  <link rel="alternate" href="${xml(feed.home)}"/>
${entries}</feed>
`;
}

export function jsonFeed(feed: Feed): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: feed.title,
    home_page_url: feed.home,
    feed_url: feed.self.replace(/\.atom$/, ".json"),
    authors: [{ name: "zonetime" }],
    items: feed.entries.map((e) => ({ id: e.id, url: e.link, title: e.title, summary: e.summary, content_text: e.content, date_published: e.updated })),
  });
}
