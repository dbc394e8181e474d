// A release's country and coordinate tables (zone1970.tab from 2014f on, zone.tab,
// iso3166.tab) as one text, the "tab bundle", stored with its zic input in
// data/tzdb-releases/ (`<release>.tabs.diff`, the same `diff -n` chain). Comment lines are
// dropped (what is left is every row, as the release wrote it); each file present opens
// with a `## name` line, so a release without zone1970.tab simply has no such section.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The tables /info's countries and location come from, in the order the build reads them. */
export const TAB_BUNDLE_FILES = ["zone1970.tab", "zone.tab", "iso3166.tab"] as const;
export type TabFile = (typeof TAB_BUNDLE_FILES)[number];

/** The bundle of the files given (absent ones left out), rows only. */
export function bundleTabs(files: ReadonlyMap<string, string>): string {
  let out = "";
  for (const name of TAB_BUNDLE_FILES) {
    const text = files.get(name);
    if (text === undefined) continue;
    out += `## ${name}\n`;
    for (const line of text.split("\n")) if (line !== "" && !line.startsWith("#")) out += `${line}\n`;
  }
  return out;
}

/** The files of a bundle, rows only; a file the release lacked is absent. */
export function unbundleTabs(bundle: string): Map<TabFile, string> {
  const lines = new Map<TabFile, string[]>();
  let current: string[] | null = null;
  for (const line of bundle.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("## ")) {
      const name = line.slice(3);
      if (!(TAB_BUNDLE_FILES as readonly string[]).includes(name)) throw new Error(`tab bundle: unknown section ${name}`);
      current = [];
      lines.set(name as TabFile, current);
    } else if (current === null) {
      throw new Error("tab bundle: a row before any section");
    } else {
      current.push(line);
    }
  }
  return new Map([...lines].map(([name, rows]) => [name, rows.map((r) => `${r}\n`).join("")]));
}

/** The bundle of the tables a tzdb folder holds (data/tzdb). */
export function readTabBundle(tzdbDir: string): string {
  const files = new Map<string, string>();
  for (const name of TAB_BUNDLE_FILES) {
    const path = join(tzdbDir, name);
    if (existsSync(path)) files.set(name, readFileSync(path, "utf8"));
  }
  return bundleTabs(files);
}
