// Build-time access to the tzdb releases the service answers `?tzdb=` from, as the build
// published them (generated/site-data/release-pages.json, scripts/site/release-pages-data.ts):
// what each release changed, and each name's history of releases.

import { readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.ZONETIME_SITE_DATA ?? join(process.cwd(), "..", "generated", "site-data");

export interface ChangedName {
  name: string;
  /** The release changed this name's present or future (a window ends after its date). */
  future: boolean;
  runs: string[];
  more: number;
}

export interface ReleasePage {
  release: string;
  date: string | null;
  summary: string;
  news: string;
  since: string | null;
  added: string[];
  removed: string[];
  changed: ChangedName[];
}

export interface ReleasePages {
  default: string;
  gaps: string[];
  releases: ReleasePage[];
  /** Per name, the releases that changed it, newest first: `line` says how; `kind`: its present or future, only its past, or the name added. */
  byName: Record<string, { release: string; line: string; kind: "future" | "past" | "added" }[]>;
}

export const releasePages = JSON.parse(readFileSync(join(dir, "release-pages.json"), "utf8")) as ReleasePages;

/** A release's page on the site (the feeds' entries link here too). */
export const releasePath = (release: string) => `/releases/${release}/`;
