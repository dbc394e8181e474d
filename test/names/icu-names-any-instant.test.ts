// Issue 32, done-when 3: timezone_name (Intl's "long") and generic_long ("longGeneric") equal
// ICU's (Node 20, ICU 78.2, CLDR 48.0) for every name x 30 locales at instants from 1800 to
// 2100: 1800-01-01 and both sides of every transition (the last second before it, and it),
// LMT and every pre-1970 offset included. Compared wherever ICU's offset equals ours (ICU's
// tz data is an older release than 2026f: where the rules differ, the names may too, and
// that is tzdb's data, not the names). Each instant left out so is accounted for, or it is a
// difference too: ICU's offset is that of ICU's own release (process.versions.tz, from our
// time machine), or, for a name that release's main data makes a Link (Africa/Accra to
// Africa/Abidjan), that of the Link's target. Our data/tzdb is built with `backzone` (those
// names' own pre-1970 history, PACKRATDATA=backzone PACKRATLIST=zone.tab); ICU's is not.
// The Links are read from IANA's repository at that release (../shared/mirrors/eggert+tz).
// Node streams one line per name.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { resolveLocale } from "../../server/names/locale-tag.ts";
import { NAME_LOCALES } from "../support/name-locales.ts";
import { requireTool } from "../support/require-tool.ts";
import { testNamer } from "../support/names-table.ts";
import { testHistory } from "../support/history-table.ts";
import { mirrorGitDir } from "../support/third-party.ts";

/** The release's main-data Links (name -> target), as its source files declare them (not backzone's Zones). */
function mainLinks(release: string): Map<string, string> {
  const gitDir = mirrorGitDir("eggert/tz");
  const links = new Map<string, string>();
  for (const file of ["africa", "antarctica", "asia", "australasia", "europe", "northamerica", "southamerica", "etcetera", "backward"]) {
    const run = Bun.spawnSync(["git", "--git-dir", gitDir, "show", `${release}:${file}`]);
    if (run.exitCode !== 0) throw new Error(`eggert/tz ${release}:${file}: ${run.stderr.toString()}`);
    for (const line of run.stdout.toString().split("\n")) {
      const [keyword, target, name] = line.split(/\s+/);
      if (keyword === "Link" && target && name) links.set(name, target);
    }
  }
  return links;
}

const LOCALES = NAME_LOCALES;
const FIRST = Date.UTC(1800, 0, 1) / 1000;
const LAST = Date.UTC(2100, 0, 1) / 1000;

test("timezone_name and generic_long equal ICU's for every name x 30 locales, both sides of every transition 1800-2100", async () => {
  const namer = await testNamer();
  const zones = namer.zones;
  const names = zones.names.filter((n) => n !== "Factory");
  const instantsOf = (name: string): number[] => {
    const zone = zones.resolve(name)!.zone;
    const out = [FIRST];
    for (let t = FIRST; ;) {
      const end = zones.periodAt(zone, t).end;
      if (!Number.isFinite(end) || end >= LAST) break;
      out.push(end - 1, end);
      t = end;
    }
    return out;
  };
  const input = [JSON.stringify({ locales: LOCALES }), ...names.map((name) => JSON.stringify({ name, instants: instantsOf(name) }))].join("\n") + "\n";
  const child = Bun.spawn([requireTool("node"), join(import.meta.dir, "..", "support", "icu-names-at-instants.cjs")], { stdin: new TextEncoder().encode(input), stdout: "pipe", stderr: "inherit" });
  const locales = LOCALES.map((tag) => resolveLocale(namer.names, tag));
  const history = await testHistory();
  let versions: { icu: string; cldr: string; tz: string } | null = null;
  /** Names whose offsets differ from ICU's somewhere: by ICU's release, or by ICU's data without backzone. */
  const olderRelease = new Set<string>();
  const withoutBackzone = new Set<string>();
  let links: Map<string, string> | null = null;
  let compared = 0;
  let skippedOffsets = 0;
  let before1970 = 0;
  const unknownToIcu: string[] = [];
  const differences: string[] = [];
  const check = (line: string) => {
    if (versions === null) {
      versions = JSON.parse(line);
      return;
    }
    const [name, offsets, longs, generics] = JSON.parse(line) as [string, number[] | null, string[][], string[][]];
    if (offsets === null) {
      unknownToIcu.push(name);
      return;
    }
    const zone = zones.resolve(name)!.zone;
    instantsOf(name).forEach((t, i) => {
      const ours = zones.periodAt(zone, t).type.utoff;
      if (ours !== offsets[i]) {
        skippedOffsets++;
        const icuTable = history.table(versions!.tz)!;
        const offsetIn = (n: string) => {
          const resolved = icuTable.resolve(n);
          return resolved === undefined ? undefined : icuTable.periodAt(resolved.zone, t).type.utoff;
        };
        links ??= mainLinks(versions!.tz);
        const target = links.get(name);
        // A Link in ICU's data first: our time machine's older releases are built without backzone too.
        if (target !== undefined && offsetIn(target) === offsets[i]) withoutBackzone.add(name);
        else if (offsetIn(name) === offsets[i]) olderRelease.add(name);
        else differences.push(`${name} ${new Date(t * 1000).toISOString()} offset: ICU ${offsets[i]}, ours ${ours}, tzdb ${versions!.tz} ${offsetIn(name)}, its main-data target ${target}`);
        return;
      }
      locales.forEach((locale, l) => {
        compared++;
        if (t < 0) before1970++;
        const ours = namer.longNameAt(name, t, locale, "specific");
        const oursGeneric = namer.longNameAt(name, t, locale, "generic");
        const when = new Date(t * 1000).toISOString();
        if (ours !== longs[l]![i]) differences.push(`${name} ${LOCALES[l]} ${when} long: ICU "${longs[l]![i]}", ours "${ours}"`);
        if (oursGeneric !== generics[l]![i]) differences.push(`${name} ${LOCALES[l]} ${when} longGeneric: ICU "${generics[l]![i]}", ours "${oursGeneric}"`);
      });
    });
  };
  // Line by line as Node writes them: neither side holds the whole table.
  let pending = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    pending += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      check(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  }
  expect(await child.exited).toBe(0);
  expect(versions!.cldr).toBe("48.0");
  console.log(`ICU ${versions!.icu}: ${compared} (name, locale, instant) compared twice, ${before1970} of them before 1970; ` +
    `${skippedOffsets} instants skipped where ICU's offset differs from ours: as tzdb ${versions!.tz} differs from ${zones.tzdbVersion} ` +
    `(${[...olderRelease].join(", ")}), as ICU's data has no backzone (${withoutBackzone.size} names); unknown to ICU: ${unknownToIcu.join(", ") || "none"}; ${differences.length} differences`);
  if (differences.length > 0) console.log(differences.slice(0, 40).join("\n"));
  if (process.env.NAMES_DIFF_FILE) await Bun.write(process.env.NAMES_DIFF_FILE, differences.join("\n"));
  expect(compared).toBeGreaterThan(2_000_000);
  expect(differences).toEqual([]);
}, 900_000);
