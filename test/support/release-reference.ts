// The reference for any tzdb release served: its committed zic input (data/tzdb-releases,
// read back as the build reads it) compiled by the machine's zic, once per test run.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoredReleases, type StoredRelease } from "../../scripts/tzdb/history/release-store.ts";
import { REPO_TZDB_DIR } from "./history-table.ts";
import { formatOffset } from "../../server/core/time-format.ts";
import { requireTool, yearStart, zdumpHistories, type ClockState, type ZoneHistory } from "./zic-reference.ts";
import { zdumpVerbose, type VerboseChange } from "./zdump-verbose.ts";
import { mirrorFile } from "./third-party.ts";

let stored: StoredRelease[] | null = null;

/** Every release served, newest first, with its zic input. */
export function storedReleases(): StoredRelease[] {
  stored ??= readStoredReleases(REPO_TZDB_DIR, join(REPO_TZDB_DIR, "..", "tzdb-releases"));
  return stored;
}

const compiled = new Map<string, string>();

/** A TZDIR holding `release` as the machine's zic compiles it. */
export function zicRelease(release: string): string {
  const known = compiled.get(release);
  if (known) return known;
  const source = storedReleases().find((r) => r.release === release);
  if (!source) throw new Error(`release ${release} is not served`);
  const dir = mkdtempSync(join(tmpdir(), `zonetime-zic-${release}-`));
  writeFileSync(join(dir, "tzdata.zi"), source.text);
  const out = join(dir, "zoneinfo");
  const result = Bun.spawnSync([requireTool("zic"), ...yearTypeScript(source, dir), ...spacedAbbreviations(source), "-d", out, join(dir, "tzdata.zi")], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`zic ${release}: ${result.stderr.toString()}`);
  compiled.set(release, out);
  return out;
}

/**
 * zic's `-y` for a release whose Rules have year types (92c-2000e): the release's own
 * yearistype.sh, from IANA's repository at the release's commit (the machine's zic, glibc's
 * copy, still runs it, with a warning). No option for the others.
 */
function yearTypeScript(source: StoredRelease, dir: string): string[] {
  if (!/^R(?:ule)?\s+\S+\s+\S+\s+\S+\s+(?!-\s)\S+\s/m.test(source.text)) return [];
  const commit = /\(([0-9a-f]{40})\)$/.exec(source.source)?.[1];
  if (commit === undefined) throw new Error(`${source.release}: its Rules have year types but its source names no commit to take yearistype.sh from`);
  const script = join(dir, "yearistype.sh");
  writeFileSync(script, mirrorFile("eggert/tz", "yearistype.sh", commit), { mode: 0o755 });
  return ["-y", script];
}

/** 2101-01-01T00:00:00Z, where every reference stops. */
const END_OF_REFERENCE = Date.UTC(2101, 0, 1) / 1000;

/**
 * 92c-96h wrote abbreviations with a space ("WGT DST", or a LETTER " DST"): zic puts them in
 * the TZ string (`WGT3<WGT DST>,M3.5.0,M9.5.0/3`), which POSIX does not allow and glibc's
 * reader (zdump's localtime) rejects, answering garbage after the last change listed. For
 * those releases zic lists every change through 2100 itself (`-r /@2101-01-01`: no TZ
 * string then), so the reference stays zic's own arithmetic, as for the others.
 */
function spacedAbbreviations(source: StoredRelease): string[] {
  return /"[^"\n]* [^"\n]*"/.test(source.text) ? ["-r", `/@${END_OF_REFERENCE}`] : [];
}

/** Removes a release's compiled tree (a few thousand files). */
export function removeZicRelease(release: string): void {
  const dir = compiled.get(release);
  if (dir === undefined) return;
  rmSync(join(dir, ".."), { recursive: true, force: true });
  compiled.delete(release);
}

/** zdump quotes an abbreviation that is not all letters ("GMT+10" in releases before 2017a). */
export const unquoted = (abbr: string) => abbr.replace(/^"(.*)"$/, "$1");

/**
 * `zdump -v` histories over [lo, hiExclusive) years: the state before the first change is the
 * initial one; a name with no change there (zdump -v prints no state) is read with zdump -i.
 * zdump -v also reports a change at the range's upper bound itself: left out.
 */
export async function verboseHistories(tzdir: string, names: string[], lo: number, hi: number): Promise<{ histories: Map<string, ZoneHistory>; changes: Map<string, VerboseChange[]> }> {
  // zdump's scan is the cost (about 0.1 s of CPU per zone): a TZif file's bytes decide what
  // it prints, so each distinct file is dumped once per test process, whatever release holds it.
  const keyOf = new Map(names.map((n) => [n, `${lo}|${hi}|${new Bun.CryptoHasher("sha256").update(readFileSync(join(tzdir, n))).digest("hex")}`]));
  const missing = new Map<string, string>();
  for (const [name, key] of keyOf) if (!dumped.has(key) && !missing.has(key)) missing.set(key, name);
  if (missing.size > 0) {
    const fresh = await dumpHistories(tzdir, [...missing.values()], lo, hi);
    for (const [key, name] of missing) dumped.set(key, { history: fresh.histories.get(name)!, changes: fresh.changes.get(name)! });
  }
  return {
    histories: new Map(names.map((n) => [n, dumped.get(keyOf.get(n)!)!.history])),
    changes: new Map(names.map((n) => [n, dumped.get(keyOf.get(n)!)!.changes])),
  };
}

const dumped = new Map<string, { history: ZoneHistory; changes: VerboseChange[] }>();

async function dumpHistories(tzdir: string, names: string[], lo: number, hi: number): Promise<{ histories: Map<string, ZoneHistory>; changes: Map<string, VerboseChange[]> }> {
  const verbose = await zdumpVerbose(tzdir, names, lo, hi);
  const changes = new Map([...verbose].map(([n, c]) => [n, c.filter((x) => x.at < yearStart(hi))]));
  const quiet = names.filter((n) => changes.get(n)!.length === 0);
  const steady = quiet.length > 0 ? await zdumpHistories(tzdir, quiet, lo, hi) : new Map<string, ZoneHistory>();
  const state = (s: { utoff: number; isdst: boolean; abbr: string }) => ({ utoff: s.utoff, isdst: s.isdst, abbr: unquoted(s.abbr) });
  const histories = new Map<string, ZoneHistory>();
  for (const name of names) {
    const c = changes.get(name)!;
    const h = c.length > 0 ? { initial: c[0]!.before, transitions: c.map((x) => ({ at: x.at, state: x.after })) } : steady.get(name)!;
    histories.set(name, { initial: state(h.initial), transitions: h.transitions.map((t) => ({ at: t.at, state: state(t.state) })) });
  }
  return { histories, changes };
}

/** An instant as the API echoes it, and a clock state as the API's fields: what the brute-force reference compares. */
export const iso = (t: number) => new Date(t * 1000).toISOString().replace(".000Z", "Z");
export const state = (s: ClockState) => ({ utc_offset: formatOffset(s.utoff), abbreviation: s.abbr, dst: s.isdst });

/** The windows where two histories disagree: every instant either changes at, in order. */
export function bruteWindows(a: ZoneHistory, b: ZoneHistory, lo: number, hi: number) {
  const instants = [...new Set([lo, ...a.transitions.map((t) => t.at), ...b.transitions.map((t) => t.at)])]
    .filter((t) => t >= lo && t < hi).sort((x, y) => x - y);
  const at = (h: ZoneHistory, t: number) => {
    let s = h.initial;
    for (const x of h.transitions) if (x.at <= t) s = x.state;
    return s;
  };
  const windows: { start: string; end: string; from: object; to: object }[] = [];
  instants.forEach((t, i) => {
    const [sa, sb] = [state(at(a, t)), state(at(b, t))];
    if (JSON.stringify(sa) === JSON.stringify(sb)) return;
    const end = iso(instants[i + 1] ?? hi);
    const last = windows.at(-1);
    if (last && last.end === iso(t) && JSON.stringify([last.from, last.to]) === JSON.stringify([sa, sb])) last.end = end;
    else windows.push({ start: iso(t), end, from: sa, to: sb });
  });
  return windows;
}
