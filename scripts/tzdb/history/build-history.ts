// `bun run build`, tz history part: data/tzdb + data/tzdb-releases -> generated/tzdb-history.bin.
// Each zone is compiled with the horizon of its own zic input (compile.ts, horizonOf: two
// years past the last year its lines and rules name, at least 2039), so that a zone whose
// rules did not change compiles to the very same version and is stored once, and a version
// stores no transitions its footer gives anyway. (One horizon for all, the furthest any
// release needed, stored every DST version's changes through 2090: 1.4 MB of 6 MB with 234
// releases.)

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { encodeHistory, HISTORY_FILE, ABSENT, type ReleaseMeta } from "../../../server/formats/history-format.ts";
import type { HistoryManifest } from "../../../server/formats/manifest.ts";
import type { CompiledZone } from "../../../server/formats/zone-model.ts";
import { encodeCheckedZones } from "../checked-zones.ts";
import { sha256Hex, writeAtomically } from "../../write-atomically.ts";
import { EXCLUDED_NAMES, horizonOf } from "../compile.ts";
import { parseTzSources } from "../parse.ts";
import type { RuleLine } from "../parse.ts";
import { resolveTzSource, type ResolvedZone, type ZoneTableSource } from "../resolve.ts";
import { compileZone } from "../transitions.ts";
import { compareReleases } from "./release-names.ts";
import { readGaps, readStoredReleases, type StoredRelease } from "./release-store.ts";
import { releaseFacts } from "./release-facts.ts";
import { readTabBundle } from "./release-tabs.ts";
import { releaseZoneTabs } from "./release-zone-tabs.ts";

/** The older releases live beside data/tzdb; a tzdb folder without them serves its own release alone. */
export function releasesDirOf(tzdbDir: string): string {
  return join(dirname(tzdbDir), "tzdb-releases");
}

function releasesOf(tzdbDir: string): StoredRelease[] {
  const dir = releasesDirOf(tzdbDir);
  if (existsSync(join(dir, "releases.tsv"))) return readStoredReleases(tzdbDir, dir);
  const text = readFileSync(join(tzdbDir, "tzdata.zi"), "utf8");
  const release = /^#\s*version\s+(\S+)/m.exec(text)?.[1] ?? "unknown";
  return [{ release, date: null, form: "tzdata.zi+backzone", sha256: sha256Hex(text), source: tzdbDir, summary: "", text, tabs: readTabBundle(tzdbDir), news: "" }];
}

/** Since 2012e every letter of a year is a release with data; before, some were code only. */
const LETTERS_ARE_RELEASES_SINCE = 2012;

/**
 * IANA's releases between the first and the last served that are not served: `listed`
 * (data/tzdb-releases/gaps.tsv, made from NEWS) and, from 2012 on, YYYY + letters a.. up to
 * each year's last served.
 */
export function gapsOf(releases: readonly string[], listed: readonly string[] = []): string[] {
  const served = new Set(releases);
  const sorted = [...releases].filter((r) => Number(r.slice(0, 4)) >= LETTERS_ARE_RELEASES_SINCE).sort();
  if (sorted.length === 0) return [...listed].sort(compareReleases);
  const lastLetter = new Map<number, string>();
  for (const r of sorted) lastLetter.set(Number(r.slice(0, 4)), r.slice(4));
  const gaps: string[] = [];
  const first = Number(sorted[0]!.slice(0, 4));
  const last = Number(sorted[sorted.length - 1]!.slice(0, 4));
  for (let year = first; year <= last; year++) {
    const end = lastLetter.get(year);
    if (end === undefined || end.length !== 1) continue; // a year with no release served: not knowable here
    for (let c = "a".charCodeAt(0); c <= end.charCodeAt(0); c++) {
      const name = `${year}${String.fromCharCode(c)}`;
      if (!served.has(name)) gaps.push(name);
    }
  }
  return [...new Set([...listed, ...gaps])].sort(compareReleases);
}

/**
 * A zone's zic input as text: its own lines and those of every rule set they name. Equal
 * text compiles to an equal version, whatever line numbers it sits at in each release.
 * (Serialising the parsed records instead took half the build's time.) The name is part of
 * it: two Zones of one release never share a version.
 */
function sourceKeyOf(zone: ResolvedZone, lines: readonly string[], ruleSetText: Map<readonly RuleLine[], string>): string {
  let key = zone.name;
  for (const line of zone.lines) {
    key += `\n${lines[line.pos.line - 1]}`;
    if (line.ruleLines.length === 0) continue;
    let rules = ruleSetText.get(line.ruleLines);
    if (rules === undefined) {
      rules = line.ruleLines.map((rule) => lines[rule.pos.line - 1]).join("\n");
      ruleSetText.set(line.ruleLines, rules);
    }
    key += `\n${rules}`;
  }
  return key;
}

export async function buildHistory(tzdbDir: string, outDir: string, builtAt: string): Promise<HistoryManifest> {
  const started = performance.now();
  const releases = releasesOf(tzdbDir);
  const sources: ZoneTableSource[] = releases.map((r) => resolveTzSource(parseTzSources([{ name: `${r.release}/tzdata.zi`, text: r.text }])));
  // One first year for all (the year loop's start; no rule starts at `min`, so it changes nothing).
  let firstYear = Infinity;
  for (const s of sources) firstYear = Math.min(firstYear, horizonOf(s).firstYear);
  const versions: { name: string; compiled: CompiledZone }[] = [];
  const versionByKey = new Map<string, number>();
  // Most zones' lines are the same from release to release: compiled once per distinct source.
  const versionBySource = new Map<string, number>();
  const names = new Set<string>();
  const perRelease: Map<string, number>[] = [];
  const lines = releases.map((r) => r.text.split("\n"));
  for (const [r, source] of sources.entries()) {
    const zoneVersion = new Map<string, number>();
    const ruleSetText = new Map<readonly RuleLine[], string>();
    for (const zone of source.zones) {
      if (EXCLUDED_NAMES.has(zone.name)) continue;
      const sourceKey = sourceKeyOf(zone, lines[r]!, ruleSetText);
      let v = versionBySource.get(sourceKey);
      if (v === undefined) {
        // The zone's own horizon is a function of its source, which sourceKey holds.
        const compiled = compileZone(zone, horizonOf({ ...source, zones: [zone] }).horizonYear, firstYear);
        const key = `${zone.name}\n${JSON.stringify(compiled)}`;
        v = versionByKey.get(key);
        if (v === undefined) {
          v = versions.length;
          versions.push({ name: zone.name, compiled });
          versionByKey.set(key, v);
        }
        versionBySource.set(sourceKey, v);
      }
      zoneVersion.set(zone.name, v);
    }
    const entries = new Map<string, number>();
    for (const [name, target] of source.targets) {
      if (EXCLUDED_NAMES.has(name)) continue;
      const v = zoneVersion.get(target);
      if (v === undefined) continue; // a link to an excluded zone
      entries.set(name, v * 2 + (source.linkNames.has(name) ? 1 : 0));
      names.add(name);
    }
    perRelease.push(entries);
  }
  const nameList = [...names].sort();
  const matrix = new Int32Array(releases.length * nameList.length).fill(ABSENT);
  perRelease.forEach((entries, r) => nameList.forEach((name, n) => {
    const e = entries.get(name);
    if (e !== undefined) matrix[r * nameList.length + n] = e;
  }));
  // The embedded table's names: every name once, at its newest version (the runtime builds
  // each release's own name list from the matrix; these give it the strings).
  const newest = new Map<string, number>();
  for (let r = releases.length - 1; r >= 0; r--) for (const [name, e] of perRelease[r]!) newest.set(name, e);
  const zones = encodeCheckedZones({
    tzdbVersion: releases.map((r) => r.release).join(","),
    builtAt,
    zones: versions.map((v) => ({ name: v.name, compiled: v.compiled })),
    names: nameList.map((name) => ({ name, zone: newest.get(name)! >> 1, isLink: (newest.get(name)! & 1) === 1 })),
  });
  const meta: ReleaseMeta[] = releases.map((r, i) => ({
    release: r.release, date: r.date, summary: r.summary, news: r.news, form: r.form, names: perRelease[i]!.size,
  }));
  const gaps = gapsOf(releases.map((r) => r.release), readGaps(releasesDirOf(tzdbDir)).map((g) => g.release));
  const { facts, factMatrix } = releaseFacts(releases.map((r, i) => ({ tabs: r.tabs, targets: sources[i]!.targets })), nameList);
  const zoneTabs = releaseZoneTabs(releases.map((r) => r.tabs));
  const bytes = encodeHistory({ meta: { releases: meta, gaps, names: nameList, facts, zoneTabs }, zones, matrix, factMatrix });
  writeAtomically(join(outDir, HISTORY_FILE), bytes);
  return {
    releases: releases.map((r) => r.release),
    gaps,
    names: nameList.length,
    versions: versions.length,
    file: { name: HISTORY_FILE, bytes: bytes.length, sha256: sha256Hex(bytes) },
    buildMs: Math.round(performance.now() - started),
  };
}
