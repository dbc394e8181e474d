// `zdump -v` as a reference for clock changes: for each change it prints the second
// before and the second of the change, each in UT and local time with abbreviation,
// isdst and UT offset, so the state before, the state after and both wall clocks come
// straight from the reference, not derived by us. Also the TZif footer zic wrote.

import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { daysFromCivil, SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import { requireTool } from "./zic-reference.ts";

export interface VerboseState {
  utoff: number;
  abbr: string;
  isdst: boolean;
  /** The local wall clock, seconds since 1970-01-01T00:00 on that clock. */
  local: number;
}

export interface VerboseChange {
  at: number;
  /** The state one second before the change, with the wall clock at that second. */
  before: VerboseState;
  after: VerboseState;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const LINE = /^(\S+)\s+\w{3} (\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (-?\d+) UT = \w{3} (\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (-?\d+) (.+?) isdst=([01]) gmtoff=(-?\d+)$/;

function seconds(month: string, day: string, h: string, m: string, s: string, year: string): number {
  const mo = MONTHS.indexOf(month) + 1;
  if (mo === 0) throw new Error(`zdump -v: unknown month ${month}`);
  return daysFromCivil(Number(year), mo, Number(day)) * SECONDS_PER_DAY + Number(h) * 3600 + Number(m) * 60 + Number(s);
}

async function zdumpVerboseText(tzdir: string, names: string[], range: string): Promise<string> {
  const child = Bun.spawn([requireTool("zdump"), "-v", "-c", range, ...names], {
    env: { ...process.env, TZDIR: tzdir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`zdump -v failed: ${stderr}`);
  return stdout;
}

/** `zdump -v -c lo,hiExclusive names...`, one zdump per core, parsed into changes per name. */
export async function zdumpVerbose(tzdir: string, names: string[], loYear: number, hiYearExclusive: number): Promise<Map<string, VerboseChange[]>> {
  const size = Math.ceil(names.length / Math.max(1, availableParallelism()));
  const parts: string[][] = [];
  for (let i = 0; i < names.length; i += size) parts.push(names.slice(i, i + size));
  const texts = await Promise.all(parts.map((part) => zdumpVerboseText(tzdir, part, `${loYear},${hiYearExclusive}`)));
  const stdout = texts.join("\n");
  const out = new Map<string, VerboseChange[]>(names.map((n) => [n, []]));
  let pending: { name: string; ut: number; state: VerboseState } | null = null;
  for (const line of stdout.split("\n")) {
    if (line === "" || line.endsWith(" = NULL")) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`zdump -v: unexpected line ${line}`);
    const ut = seconds(m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]!);
    const state = { local: seconds(m[8]!, m[9]!, m[10]!, m[11]!, m[12]!, m[13]!), abbr: m[14]!, isdst: m[15] === "1", utoff: Number(m[16]) };
    if (state.local - ut !== state.utoff) throw new Error(`zdump -v: local time and gmtoff disagree in ${line}`);
    if (pending && pending.name === m[1] && pending.ut + 1 === ut) {
      out.get(m[1]!)!.push({ at: ut, before: pending.state, after: state });
      pending = null;
    } else {
      pending = { name: m[1]!, ut, state };
    }
  }
  return out;
}

/** The POSIX TZ string zic wrote as the footer of a TZif file: the text between the last two newlines. */
export function tzifFooter(tzdir: string, name: string): string {
  const text = readFileSync(join(tzdir, name), "latin1");
  if (!text.startsWith("TZif") || !text.endsWith("\n")) throw new Error(`${name}: not a TZif file with a footer`);
  const body = text.slice(0, -1);
  return body.slice(body.lastIndexOf("\n") + 1);
}
