// What the running service must answer, taken from whatever release data/tzdb/ holds and
// never from our own compiler: the release its tzdata.zi names, the names the machine's
// zic writes for it, and the clocks zdump reads from those files. Tests of the service use
// these instead of a release's answers, so `bun run tzdb:update` keeps them true.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileWithZic, stateAt, utcOffsetText, zdumpHistories, type StateAt } from "./zic-reference.ts";
import { REPO_TZDATA } from "./zone-table.ts";

/** zic's placeholder zone, which zonetime does not serve (DESIGN.md: every Zone and Link except Factory). */
const NOT_SERVED = new Set(["Factory"]);

/** The release data/tzdb/tzdata.zi names in its `# version` line. */
export function sourceRelease(): string {
  const version = /^# version (\S+)$/m.exec(readFileSync(REPO_TZDATA, "utf8").slice(0, 200));
  if (!version) throw new Error(`${REPO_TZDATA} has no "# version" line`);
  return version[1]!;
}

let tzdir: string | null = null;

/** data/tzdb compiled by the machine's zic (once per test run). */
export function referenceTzdir(): string {
  tzdir ??= compileWithZic([REPO_TZDATA]);
  return tzdir;
}

/** Every name zic wrote a file for (Zones and Links), but Factory, in code-unit order. */
export function zicNames(): string[] {
  const root = referenceTzdir();
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .filter((name) => !NOT_SERVED.has(name))
    .sort();
}

/** zdump's clock for `name` at unix second `t`, with the isdst run around it. */
export async function zdumpAt(name: string, t: number): Promise<StateAt> {
  const year = new Date(t * 1000).getUTCFullYear();
  // Two years either side, so that a DST run crossing a year boundary has both ends.
  const history = (await zdumpHistories(referenceTzdir(), [name], year - 2, year + 3)).get(name);
  if (!history) throw new Error(`zdump printed nothing for ${name}`);
  return stateAt(history, t);
}

/** The time object fields zdump decides, for comparing with toMatchObject. */
export async function expectedClock(name: string, t: number): Promise<{ utc_offset: string; abbreviation: string; dst: boolean }> {
  const { state } = await zdumpAt(name, t);
  return { utc_offset: utcOffsetText(state.utoff), abbreviation: state.abbr, dst: state.isdst };
}
