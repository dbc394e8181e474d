// Rule lines of one name that fire on the same day ("twins"): today's zic refuses them where
// they meet ("two rules for same instant"); the zic of 93g-96f took them, and the second
// firing changed nothing. Our reader takes twins that set the same SAVE and LETTER (a copy,
// 95m-96f's Egypt; another AT, 93g-95l's Russia, 2:00 and 3:00 wall time in asia, 2:00s in
// europe; overlapping years, 93g-95h's Winnipeg) and counts the later only in the years no
// earlier one fires in (scripts/tzdb/resolve.ts); it refuses twins that set another clock.
// Each taken case is held against the machine's zic on the source without the later twin's
// shared years (test/support/twin-rules.ts, the history reference's input): the same changes.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTzSources } from "../../scripts/tzdb/parse.ts";
import { resolveTzSource } from "../../scripts/tzdb/resolve.ts";
import { compileZone } from "../../scripts/tzdb/transitions.ts";
import { repeatedRule } from "../../scripts/tzdb/history/repeated-rules.ts";
import { requireTool } from "../support/zic-reference.ts";
import { withoutTwins } from "../support/twin-rules.ts";
import { zdumpVerbose } from "../support/zdump-verbose.ts";

/** Whether the machine's zic takes `text`, and what it says when it does not. */
function zic(text: string): { ok: boolean; stderr: string; tzdir: string } {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-repeated-rules-"));
  writeFileSync(join(dir, "in.zi"), text);
  const run = Bun.spawnSync([requireTool("zic"), "-d", join(dir, "out"), join(dir, "in.zi")], { stderr: "pipe" });
  return { ok: run.exitCode === 0, stderr: run.stderr.toString(), tzdir: join(dir, "out") };
}

/** The zone's changes 1900-1999, as zdump -v reads zic's file. */
async function zicChanges(tzdir: string): Promise<[number, number, boolean, string][]> {
  const changes = (await zdumpVerbose(tzdir, ["Asia/Yerevan"], 1900, 2000)).get("Asia/Yerevan")!;
  return changes.filter((c) => c.at < Date.UTC(2000, 0, 1) / 1000).map((c) => [c.at, c.after.utoff, c.after.isdst, c.after.abbr]);
}

/** Our reader's changes 1900-1999. */
function ours(text: string): [number, number, boolean, string][] {
  const zone = resolveTzSource(parseTzSources([{ name: "in.zi", text }])).zones[0]!;
  return compileZone(zone, 2000, 1900).transitions.filter((t) => t.at < Date.UTC(2000, 0, 1) / 1000)
    .map((t) => [t.at, t.type.utoff, t.type.isdst, t.type.abbr]);
}

const ZONE = "Zone Asia/Yerevan 3:00 - MSK 1957 Mar\n 4:00 Russia BS%s\n";
// [what, rules, our reader refuses]; today's zic refuses every one but the last two.
const cases: [string, string, boolean][] = [
  // A constructed pair: one rule twice with other LETTERs (D and S).
  ["one rule twice, other LETTERs", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1984 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 1 0:00 1:00 S\n", true],
  ["one rule twice, the same line (Egypt's copy)", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1984 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 1 0:00 1:00 D\n", false],
  // 95b's asia (2:00 and 3:00 wall) and europe (2:00s): one instant while DST is in force.
  ["one day at another time of day (95b's Russia)", "Rule Russia 1984 max - Sep lastSun 3:00 0 K\nRule Russia 1985 max - Mar lastSun 2:00 1:00 D\nRule Russia 1984 max - Sep lastSun 2:00s 0 K\nRule Russia 1985 max - Mar lastSun 2:00s 1:00 D\n", false],
  // 93g's Winnipeg (1947-1949 and 1948-1960): the second, timed with the DST the first just started, an hour earlier.
  ["the same rule over years that overlap (93g's Winn)", "Rule Russia 1987 1989 - Apr lastSun 2:00 1:00 D\nRule Russia 1987 1998 - Sep lastSun 2:00 0 S\nRule Russia 1988 1998 - Apr lastSun 2:00 1:00 D\n", false],
  ["the same day in years that do not meet", "Rule Russia 1981 1982 - Apr 1 0:00 1:00 D\nRule Russia 1981 1984 - Oct 1 0:00 0 K\nRule Russia 1983 1984 - Apr 1 0:00 1:00 S\n", false],
  ["two rules on other days", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1984 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 2 0:00 1:00 S\n", false],
];

describe("a Rule set that fires twice on one day", () => {
  cases.forEach(([what, rules, refused], i) => {
    const zicRefuses = i < cases.length - 2;
    test(`${what}: ${refused ? "refused" : "taken, as the machine's zic reads it without the later twin's shared years"}`, async () => {
      const text = rules + ZONE;
      const reason = repeatedRule(parseTzSources([{ name: "in.zi", text }]));
      const whole = zic(text);
      expect(reason !== null).toBe(refused);
      expect(whole.ok).toBe(!zicRefuses);
      if (refused) expect(reason).toStartWith("Rule Russia fires twice on one day (in.zi:");
      if (zicRefuses) expect(whole.stderr).toContain("two rules for same instant");
      if (refused) return;
      const reference = zic(withoutTwins(text).text);
      expect(reference.ok).toBe(true);
      const changes = await zicChanges(reference.tzdir);
      expect(changes.length).toBeGreaterThan(4);
      expect(ours(text)).toEqual(changes);
    });
  });
});
