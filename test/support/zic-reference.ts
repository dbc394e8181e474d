// The reference the tz tests compare against: the machine's own zic compiles our
// data/tzdb source and zdump lists what the compiled files say. Missing tools are a
// failure, not a skip (.ci/run installs them).

import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { daysFromCivil, SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import type { ZoneTable } from "../../server/tz/zone-table.ts";

export interface ClockState {
  utoff: number;
  isdst: boolean;
  abbr: string;
}

export interface ZoneHistory {
  /** The state at the start of the range. */
  initial: ClockState;
  transitions: { at: number; state: ClockState }[];
}

function requireTool(name: string): string {
  // zic lives in /usr/sbin, which a non-root PATH may lack.
  const path = Bun.which(name) ?? Bun.which(name, { PATH: "/usr/sbin:/sbin:/usr/bin:/bin" });
  if (!path) throw new Error(`${name} is not installed: the tz reference tests need zic and zdump (Debian: libc-bin)`);
  return path;
}

/** Compiles zic input files into a fresh temporary TZDIR and returns its path. */
export function compileWithZic(sourceFiles: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-zic-"));
  const result = Bun.spawnSync([requireTool("zic"), "-d", dir, ...sourceFiles], { stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`zic failed: ${result.stderr.toString()}`);
  return dir;
}

function parseOffset(text: string): number {
  const m = /^([+-])(\d\d)(\d\d)?(\d\d)?$/.exec(text);
  if (!m) throw new Error(`zdump: unexpected UT offset "${text}"`);
  const s = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === "-" ? -s : s;
}

function parseState(fields: string[]): ClockState {
  const utoff = parseOffset(fields[2]!);
  const abbr = fields[3] ? fields[3] : fields[2]!; // omitted when it equals the numeric offset
  return { utoff, isdst: fields[4] === "1", abbr };
}

/** `zdump -i -c lo,hiExclusive` for each name, parsed; one zdump per core, in parallel. */
export async function zdumpHistories(tzdir: string, names: string[], loYear: number, hiYearExclusive: number): Promise<Map<string, ZoneHistory>> {
  const zdump = requireTool("zdump");
  const chunks = Math.max(1, availableParallelism());
  const size = Math.ceil(names.length / chunks);
  const outputs = await Promise.all(
    Array.from({ length: chunks }, async (_, i) => {
      const part = names.slice(i * size, (i + 1) * size);
      if (part.length === 0) return "";
      const child = Bun.spawn([zdump, "-i", "-c", `${loYear},${hiYearExclusive}`, ...part], {
        env: { ...process.env, TZDIR: tzdir },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited,
      ]);
      if (code !== 0) throw new Error(`zdump failed: ${stderr}`);
      return stdout;
    }),
  );
  return parseZdumpOutput(outputs.join("\n"));
}

function parseZdumpOutput(text: string): Map<string, ZoneHistory> {
  const out = new Map<string, ZoneHistory>();
  let current: ZoneHistory | null = null;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const header = /^TZ="(.*)"$/.exec(line);
    if (header) {
      current = { initial: { utoff: 0, isdst: false, abbr: "" }, transitions: [] };
      out.set(header[1]!, current);
      continue;
    }
    const fields = line.split("\t");
    if (!current) throw new Error(`zdump: output before a TZ= line: ${line}`);
    if (fields[0] === "-") {
      current.initial = parseState(fields);
      continue;
    }
    const [y, mo, d] = fields[0]!.split("-").map(Number) as [number, number, number];
    const [h, mi, s] = (fields[1]! + ":0:0").split(":").map(Number) as [number, number, number];
    const state = parseState(fields);
    const local = daysFromCivil(y, mo, d) * SECONDS_PER_DAY + h * 3600 + mi * 60 + s;
    current.transitions.push({ at: local - state.utoff, state });
  }
  return out;
}

/** The same history from our table: periods over [lo, hi), merging ones zdump cannot tell apart. */
export function tableHistory(table: ZoneTable, name: string, lo: number, hi: number): ZoneHistory {
  const resolved = table.resolve(name);
  if (!resolved) throw new Error(`our table has no zone ${name}`);
  const stateOf = (p: { type: ClockState }) => ({ utoff: p.type.utoff, isdst: p.type.isdst, abbr: p.type.abbr });
  let period = table.periodAt(resolved.zone, lo);
  const history: ZoneHistory = { initial: stateOf(period), transitions: [] };
  let last = history.initial;
  while (period.end < hi) {
    period = table.periodAt(resolved.zone, period.end);
    const state = stateOf(period);
    if (state.utoff !== last.utoff || state.isdst !== last.isdst || state.abbr !== last.abbr) {
      history.transitions.push({ at: period.start, state });
      last = state;
    }
  }
  return history;
}

const fmt = (s: ClockState) => `${s.utoff}s ${s.abbr}${s.isdst ? " dst" : ""}`;
const iso = (t: number) => new Date(t * 1000).toISOString().replace(".000", "");

/** Human-readable differences between two histories of one zone; empty when equal. */
export function compareHistories(name: string, ours: ZoneHistory, reference: ZoneHistory): string[] {
  const diffs: string[] = [];
  if (fmt(ours.initial) !== fmt(reference.initial)) {
    diffs.push(`${name}: initial state ours ${fmt(ours.initial)} vs zdump ${fmt(reference.initial)}`);
  }
  const n = Math.max(ours.transitions.length, reference.transitions.length);
  for (let i = 0; i < n && diffs.length < 5; i++) {
    const a = ours.transitions[i];
    const b = reference.transitions[i];
    if (!a || !b || a.at !== b.at || fmt(a.state) !== fmt(b.state)) {
      diffs.push(`${name}: transition ${i}: ours ${a ? `${iso(a.at)} ${fmt(a.state)}` : "none"} vs zdump ${b ? `${iso(b.at)} ${fmt(b.state)}` : "none"}`);
    }
  }
  return diffs;
}

export function yearStart(year: number): number {
  return daysFromCivil(year, 1, 1) * SECONDS_PER_DAY;
}

export interface StateAt {
  state: ClockState;
  /** When isdst, the UTC bounds of the isdst run around the instant (null past the history). */
  from: number | null;
  until: number | null;
}

/** What zdump says at t: the state, and when isdst the bounds of the isdst run around it. */
export function stateAt(history: ZoneHistory, t: number): StateAt {
  const all = [{ at: -Infinity, state: history.initial }, ...history.transitions];
  let i = 0;
  while (i + 1 < all.length && all[i + 1]!.at <= t) i++;
  const state = all[i]!.state;
  if (!state.isdst) return { state, from: null, until: null };
  let first = i;
  while (first > 0 && all[first - 1]!.state.isdst) first--;
  let last = i;
  while (last + 1 < all.length && all[last + 1]!.state.isdst) last++;
  return { state, from: Number.isFinite(all[first]!.at) ? all[first]!.at : null, until: last + 1 < all.length ? all[last + 1]!.at : null };
}

/** A UT offset as the time object's utc_offset spells it (`+hh:mm`, seconds only when there are any). */
export function utcOffsetText(utoff: number): string {
  const a = Math.abs(utoff);
  const hhmm = `${utoff < 0 ? "-" : "+"}${String(Math.floor(a / 3600)).padStart(2, "0")}:${String(Math.floor((a % 3600) / 60)).padStart(2, "0")}`;
  return a % 60 === 0 ? hhmm : `${hhmm}:${String(a % 60).padStart(2, "0")}`;
}
