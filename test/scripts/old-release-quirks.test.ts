// Two things in old releases our reader once refused, read as zic reads them, against the
// machine's zic and zdump -v on the same input: a Rule's SAVE "-" (1999g-i's Tonga, 2009u's
// Dhaka) is 0, and a rule firing at the instant its zone line ends (2008d's Sofia, 1945-04-02
// 01:00Z) leaves the next line's clock there, one change, not two at one instant.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileTzdb } from "../../scripts/tzdb/compile.ts";
import { requireTool } from "../support/zic-reference.ts";
import { zdumpVerbose } from "../support/zdump-verbose.ts";

const LO = Date.UTC(1900, 0, 1) / 1000;
const HI = Date.UTC(2011, 0, 1) / 1000;

/** Every change zdump -v lists for `name` in 1900-2010, after the machine's zic compiled `text`. */
async function zicChanges(text: string, name: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-old-quirks-"));
  writeFileSync(join(dir, "in.zi"), text);
  const run = Bun.spawnSync([requireTool("zic"), "-d", join(dir, "out"), join(dir, "in.zi")], { stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`zic: ${run.stderr.toString()}`);
  const changes = (await zdumpVerbose(join(dir, "out"), [name], 1900, 2011)).get(name)!;
  return changes.map((c) => `${c.at} ${c.after.utoff} ${c.after.abbr} ${c.after.isdst}`);
}

function ourChanges(text: string, name: string): string[] {
  const zone = compileTzdb([{ name: "in.zi", text }]).zones.get(name)!;
  return zone.transitions.filter((t) => t.at >= LO && t.at < HI).map((t) => `${t.at} ${t.type.utoff} ${t.type.abbr} ${t.type.isdst}`);
}

const cases: [string, string, string][] = [
  ["a SAVE \"-\" is 0 (1999g's Tonga)", "Pacific/Tongatapu",
    "Rule Tonga 1999 max - Oct Sat>=1 0:00 1:00 S\nRule Tonga 2000 max - Apr Sat>=15 0:00 - -\n" +
    "Zone Pacific/Tongatapu 12:19:20 - LMT 1901\n 12:20 - TOT 1941\n 13:00 - TOT 1999\n 13:00 Tonga TO%sT\n"],
  ["a rule firing as its zone line ends: the next line's clock (2008d's Sofia)", "Europe/Sofia",
    "Rule C-Eur 1943 only - Mar 29 2:00s 1:00 S\nRule C-Eur 1943 only - Oct 4 2:00s 0 -\n" +
    "Rule C-Eur 1944 1945 - Apr Mon>=1 2:00s 1:00 S\nRule C-Eur 1944 only - Oct 2 2:00s 0 -\n" +
    "Zone Europe/Sofia 1:33:16 - LMT 1880\n 2:00 - EET 1942 Nov 2 3:00\n 1:00 C-Eur CE%sT 1945 Apr 2 3:00\n 2:00 - EET\n"],
];

describe("old releases' SAVE \"-\" and a change at a zone line's end, as zic reads them", () => {
  for (const [what, name, text] of cases) {
    test(what, async () => {
      const expected = await zicChanges(text, name);
      expect(expected.length).toBeGreaterThan(3);
      expect(ourChanges(text, name)).toEqual(expected);
    });
  }
});
