// Every release served, every name in it, against the reference: the machine's zic compiles
// the release's committed zic input, zdump -v lists each clock change with the second before
// and the second of it, 1800-2100, and our table for that release (what `?tzdb=` answers
// from) must say the same at both seconds of every change, and have no change zdump lacks.
// zdump's scan is the cost (about 0.1 s of CPU per zone), so each distinct pair (our
// compiled version, zic's TZif bytes) is compared once: equal pairs answer identically.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoredReleases } from "../../scripts/tzdb/history/release-store.ts";
import type { ZoneTable } from "../../server/tz/zone-table.ts";
import { REPO_TZDB_DIR, testHistory } from "../support/history-table.ts";
import { zdumpVerbose, type VerboseChange, type VerboseState } from "../support/zdump-verbose.ts";
import { compareHistories, requireTool, tableHistory, yearStart, zdumpHistories, type ZoneHistory } from "../support/zic-reference.ts";

const LO = 1800;
const HI = 2101; // exclusive: through the end of 2100

function zicCompile(release: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), `zonetime-zic-${release}-`));
  writeFileSync(join(dir, "tzdata.zi"), text);
  const out = join(dir, "zoneinfo");
  const result = Bun.spawnSync([requireTool("zic"), "-d", out, join(dir, "tzdata.zi")], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`zic ${release}: ${result.stderr.toString()}`);
  return out;
}

function zicNames(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .filter((name) => name !== "Factory")
    .sort();
}

/** zdump -v's changes as a history: the state before the first change is the initial one. */
function historyOfChanges(changes: VerboseChange[], initial: VerboseState): ZoneHistory {
  const state = (s: VerboseState) => ({ utoff: s.utoff, isdst: s.isdst, abbr: unquoted(s.abbr) });
  return { initial: state(initial), transitions: changes.map((c) => ({ at: c.at, state: state(c.after) })) };
}

/** zdump quotes an abbreviation that is not all letters ("GMT+10" in releases before 2017a). */
const unquoted = (abbr: string) => abbr.replace(/^"(.*)"$/, "$1");

function unquotedHistory(h: ZoneHistory): ZoneHistory {
  const state = (s: ZoneHistory["initial"]) => ({ ...s, abbr: unquoted(s.abbr) });
  return { initial: state(h.initial), transitions: h.transitions.map((t) => ({ at: t.at, state: state(t.state) })) };
}

/** Our state one second before each of zdump's changes must be zdump's "before" state. */
function secondBefore(table: ZoneTable, name: string, changes: VerboseChange[]): string[] {
  const zone = table.resolve(name)!.zone;
  const diffs: string[] = [];
  for (const c of changes) {
    const t = table.periodAt(zone, c.at - 1).type;
    if (t.utoff !== c.before.utoff || t.abbr !== unquoted(c.before.abbr) || t.isdst !== c.before.isdst) {
      diffs.push(`${name}: at ${c.at - 1} ours ${t.utoff} ${t.abbr} vs zdump ${c.before.utoff} ${c.before.abbr}`);
    }
  }
  return diffs;
}

describe("every tzdb release against zic + zdump -v", () => {
  test("every release, every name, 1800-2100: 0 differences", async () => {
    const started = performance.now();
    const history = await testHistory();
    const stored = readStoredReleases(REPO_TZDB_DIR, join(REPO_TZDB_DIR, "..", "tzdb-releases"));
    expect(stored.map((r) => r.release)).toEqual(history.releases.map((r) => r.release));
    // One representative (release, name) per distinct pair of our version and zic's bytes.
    const pairs = new Map<string, { release: string; name: string; tzdir: string }>();
    const differences: string[] = [];
    let namesChecked = 0;
    for (const release of stored) {
      const tzdir = zicCompile(release.release, release.text);
      const table = history.table(release.release)!;
      const names = zicNames(tzdir);
      const ours = [...table.names].sort();
      if (JSON.stringify(ours) !== JSON.stringify(names)) {
        differences.push(`${release.release}: names differ: ours lack ${names.filter((n) => !ours.includes(n)).slice(0, 5)}, zic lacks ${ours.filter((n) => !names.includes(n)).slice(0, 5)}`);
      }
      for (const name of names) {
        if (!table.resolve(name)) continue;
        namesChecked++;
        const bytes = new Bun.CryptoHasher("sha256").update(readFileSync(join(tzdir, name))).digest("hex");
        // The default release answers from zones.bin; the others from the history's versions.
        const version = release.release === history.defaultRelease ? `default:${table.resolve(name)!.zone}` : `v${history.versionOf(release.release, name)}`;
        const key = `${version}|${bytes}`;
        if (!pairs.has(key)) pairs.set(key, { release: release.release, name, tzdir });
      }
    }
    // zdump per release folder, for the representatives found in it.
    const byDir = new Map<string, { release: string; name: string; tzdir: string }[]>();
    for (const p of pairs.values()) byDir.set(p.tzdir, [...(byDir.get(p.tzdir) ?? []), p]);
    let transitions = 0;
    for (const [tzdir, group] of byDir) {
      const names = group.map((p) => p.name);
      const verbose = await zdumpVerbose(tzdir, names, LO, HI);
      // A name with no change in the range: zdump -v prints no state, zdump -i does.
      const quiet = names.filter((n) => verbose.get(n)!.length === 0);
      const steady = quiet.length > 0 ? await zdumpHistories(tzdir, quiet, LO, HI) : new Map<string, ZoneHistory>();
      for (const { release, name } of group) {
        const table = history.table(release)!;
        // zdump -v also reports a change at the range's upper bound itself: outside [LO, HI).
        const changes = verbose.get(name)!.filter((c) => c.at < yearStart(HI));
        const reference = changes.length > 0 ? historyOfChanges(changes, changes[0]!.before)
          : unquotedHistory(steady.get(name) ?? historyOfChanges([], verbose.get(name)![0]!.before));
        const ours = tableHistory(table, name, yearStart(LO), yearStart(HI));
        transitions += ours.transitions.length;
        differences.push(...compareHistories(`${release} ${name}`, ours, reference).slice(0, 3));
        differences.push(...secondBefore(table, name, changes).slice(0, 3).map((d) => `${release} ${d}`));
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`tzdb history vs zic+zdump -v: ${stored.length} releases, ${namesChecked} (release, name) pairs, ` +
      `${pairs.size} distinct (version, TZif) pairs dumped, ${transitions} transitions, ${seconds} s`);
    expect(differences.slice(0, 40)).toEqual([]);
    expect(stored.length).toBeGreaterThanOrEqual(88);
    expect(namesChecked).toBeGreaterThan(88 * 500);
    expect(transitions).toBeGreaterThan(100_000);
  }, 900_000);
});
