// The reference for any tzdb release served: its committed zic input (data/tzdb-releases,
// read back as the build reads it) compiled by the machine's zic, once per test run. The
// releases our reader refused until it learnt what their own zic did (issue 33) are also
// compiled by the zic of their time, built from IANA's repository at the release's commit.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoredReleases, type StoredRelease } from "../../scripts/tzdb/history/release-store.ts";
import { REPO_TZDB_DIR } from "./history-table.ts";
import { formatOffset } from "../../server/core/time-format.ts";
import { requireTool, yearStart, zdumpHistories, type ClockState, type ZoneHistory } from "./zic-reference.ts";
import { zdumpVerbose, type VerboseChange } from "./zdump-verbose.ts";
import { mirrorFile, mirrorGitDir } from "./third-party.ts";
import { eraZic } from "../../scripts/tzdb/era-zic.ts";
import { differingFiles, withoutTwins, zonesUsing } from "./twin-rules.ts";

let stored: StoredRelease[] | null = null;

/** Every release served, newest first, with its zic input. */
export function storedReleases(): StoredRelease[] {
  stored ??= readStoredReleases(REPO_TZDB_DIR, join(REPO_TZDB_DIR, "..", "tzdb-releases"));
  return stored;
}

const compiled = new Map<string, string>();

/** How each release's reference was made: today's zic (also checked against the era's), or today's without twin Rules. */
const kinds = new Map<string, "today" | "today, era-checked" | "without-twins">();
export const referenceKind = (release: string) => kinds.get(release);

function runZic(zic: string[], input: string, out: string): { ok: boolean; stderr: string } {
  const result = Bun.spawnSync([...zic, "-d", out, input], { stderr: "pipe" });
  return { ok: result.exitCode === 0, stderr: result.stderr.toString() };
}

/**
 * Releases our reader refused until issue 33 that today's zic takes: 1999g, 1999i and 2009u
 * (a Rule's SAVE "-", in Tonga's and Dhaka's rules) and 2008d (Sofia's rule firing at its
 * zone line's UNTIL). Their reference is today's zic, as for every release; the zone the
 * quirk is in must also read the same compiled by the zic of their own time
 * (scripts/tzdb/era-zic.ts), zdump -v over 1901-2036 (1999's zic wrote 32-bit times). Other
 * zones need not: that zic had bugs fixed since (1999i's Bishkek changes an hour early in
 * 1992, after a line with a fixed SAVE).
 */
export const ERA_CHECK: ReadonlyMap<string, string> = new Map([
  ["2009u", "Asia/Dhaka"], ["2008d", "Europe/Sofia"], ["1999i", "Pacific/Tongatapu"], ["1999g", "Pacific/Tongatapu"],
]);

/**
 * Zones whose twin Rules the zic of their time read as today's zic reads the source without
 * them, but which that zic starts otherwise at a zone line's end, twins or not (its output is
 * the same without them): 93g-94b's Tallinn, whose `3:00 Russia MS%s 1989 Mar 26 2:00` ends
 * as Russia's rule fires; that zic gives an hour of MET (+02, isdst=0) from 1989-03-25T23:00Z
 * before the next line's DST, today's goes straight to MET DST (+03).
 */
const ERA_START_DIFFERS: ReadonlyMap<string, string> = new Map(["93g", "94a", "94b"].map((r) => [r, "Europe/Tallinn"]));

/** A TZDIR holding `release` as the machine's zic compiles it (93g-96f without their twin Rules). */
export function zicRelease(release: string): string {
  const known = compiled.get(release);
  if (known) return known;
  const source = storedReleases().find((r) => r.release === release);
  if (!source) throw new Error(`release ${release} is not served`);
  const dir = mkdtempSync(join(tmpdir(), `zonetime-zic-${release}-`));
  const input = join(dir, "tzdata.zi");
  writeFileSync(input, source.text);
  const out = join(dir, "zoneinfo");
  const yearTypes = yearTypeScript(source, dir);
  const today = [requireTool("zic"), ...yearTypes, ...spacedAbbreviations(source)];
  const first = runZic(today, input, out);
  if (!first.ok && !first.stderr.includes("two rules for same instant")) throw new Error(`zic ${release}: ${first.stderr}`);
  if (!first.ok) {
    // The release's own zic reads the same with and without the twin Rule lines...
    rmSync(out, { recursive: true, force: true });
    const twins = withoutTwins(source.text);
    const withoutInput = join(dir, "without-twins.zi");
    writeFileSync(withoutInput, twins.text);
    const own = eraZic(commitOf(source), mirrorGitDir("eggert/tz"));
    const [withTree, withoutTree] = [join(dir, "own-with"), join(dir, "own-without")];
    for (const [file, tree] of [[input, withTree], [withoutInput, withoutTree]] as const) {
      const era = runZic([own, ...yearTypes], file, tree);
      if (!era.ok) throw new Error(`the zic of ${release} on ${file}: ${era.stderr}`);
    }
    const differ = differingFiles(withTree, withoutTree);
    const unread = differ.filter((f) => !existsSync(join(withTree, f)) || !existsSync(join(withoutTree, f)) ||
      JSON.stringify(dump1901To2036(withTree, f)) !== JSON.stringify(dump1901To2036(withoutTree, f)));
    if (twins.changed === 0 || unread.length > 0) throw new Error(`the zic of ${release} compiles ${unread.slice(0, 5).join(", ")} otherwise without its ${twins.changed} twin Rule lines`);
    // ...today's takes the source without them...
    const second = runZic(today, withoutInput, out);
    if (!second.ok) throw new Error(`zic ${release} without its ${twins.changed} twin Rule lines: ${second.stderr}`);
    // ...and reads the zones that use them as the release's own zic does.
    const zones = zonesUsing(source.text, twins.rules).filter((z) => z !== ERA_START_DIFFERS.get(release));
    checkAgainstEra(release, zones, withTree, out);
    kinds.set(release, "without-twins");
  } else {
    const zone = ERA_CHECK.get(release);
    if (zone !== undefined) {
      const eraOut = join(dir, "era");
      const era = runZic([eraZic(commitOf(source), mirrorGitDir("eggert/tz")), ...yearTypes], input, eraOut);
      if (!era.ok) throw new Error(`the zic of ${release}: ${era.stderr}`);
      checkAgainstEra(release, [zone], eraOut, out);
    }
    kinds.set(release, zone !== undefined ? "today, era-checked" : "today");
  }
  compiled.set(release, out);
  return out;
}

/**
 * `zdump -v` of one file of a tree the zic of a release's time wrote, over 1901-2036 (the
 * 32-bit times it wrote). Before 96h its files have no "TZif" magic, which glibc's reader
 * wants, and are laid out otherwise as TZif version 1 (tzfile.h: 20 or 24 reserved bytes,
 * then the same counts; 93g's 24 leave ttisgmtcnt 0): the magic is written in first.
 */
function dump1901To2036(tzdir: string, zone: string): string[] {
  const path = join(tzdir, zone);
  const bytes = readFileSync(path);
  if (bytes.readUInt32BE(0) === 0) {
    bytes.write("TZif", 0, "latin1");
    writeFileSync(path, bytes);
  }
  const run = Bun.spawnSync([requireTool("zdump"), "-v", "-c", "1901,2037", path], { stdout: "pipe" });
  return run.stdout.toString().split("\n").filter((l) => l !== "" && !l.endsWith(" = NULL")).map((l) => l.slice(tzdir.length));
}

/** Throws unless each of `zones` reads the same (zdump -v, 1901-2036) in today's zic's tree and the era's. */
function checkAgainstEra(release: string, zones: string[], eraOut: string, out: string): void {
  if (zones.length === 0) throw new Error(`${release}: no zone to hold against the zic of its time`);
  for (const zone of zones) {
    const [ours, theirs] = [dump1901To2036(out, zone), dump1901To2036(eraOut, zone)];
    if (ours.length < 4 || JSON.stringify(ours) !== JSON.stringify(theirs)) {
      throw new Error(`${release} ${zone}: today's zic and the zic of its time differ: ${ours.filter((l) => !theirs.includes(l)).slice(0, 3).join("; ")}`);
    }
  }
}

/**
 * zic's `-y` for a release whose Rules have year types (92c-2000e): the release's own
 * yearistype.sh, from IANA's repository at the release's commit (the machine's zic, glibc's
 * copy, still runs it, with a warning). No option for the others.
 */
function yearTypeScript(source: StoredRelease, dir: string): string[] {
  if (!/^R(?:ule)?\s+\S+\s+\S+\s+\S+\s+(?!-\s)\S+\s/m.test(source.text)) return [];
  const script = join(dir, "yearistype.sh");
  writeFileSync(script, mirrorFile("eggert/tz", "yearistype.sh", commitOf(source)), { mode: 0o755 });
  return ["-y", script];
}

/** The commit of IANA's repository a release was imported from. */
function commitOf(source: StoredRelease): string {
  const commit = /\(([0-9a-f]{40})\)$/.exec(source.source)?.[1];
  if (commit === undefined) throw new Error(`${source.release}: its source names no commit of IANA's repository`);
  return commit;
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
