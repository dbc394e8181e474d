// The import leaves out a release whose Rule set fires twice on one day other than as a word-
// for-word copy (93g-95l: Russia's rules in asia change at 2:00 and 3:00 wall time, in europe
// at 2:00s): today's zic refuses them where they meet, and the zic of the time, which took
// them, differs from today's elsewhere. A copy (95m-96f: Egypt's rules in africa and asia,
// Russia's word for word in both) is taken: the second firing changes nothing, as the zic of
// the time shows (test/support/twin-rules.ts, in the history differential test). The check
// is held against the machine's zic on the same input, which refuses every pair that meets.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTzSources } from "../../scripts/tzdb/parse.ts";
import { repeatedRule } from "../../scripts/tzdb/history/repeated-rules.ts";
import { requireTool } from "../support/zic-reference.ts";

/** Whether the machine's zic takes `text`, and what it says when it does not. */
function zicTakes(text: string): { ok: boolean; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-repeated-rules-"));
  writeFileSync(join(dir, "in.zi"), text);
  const run = Bun.spawnSync([requireTool("zic"), "-d", join(dir, "out"), join(dir, "in.zi")], { stderr: "pipe" });
  return { ok: run.exitCode === 0, stderr: run.stderr.toString() };
}

const ZONE = "Zone Asia/Yerevan 3:00 - MSK 1957 Mar\n 4:00 Russia BS%s\n";
// [what, rules, our reader refuses, today's zic refuses]
const cases: [string, string, boolean, boolean][] = [
  // A constructed pair: one rule twice with other LETTERs (D and S).
  ["one rule twice, other LETTERs", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 1 0:00 1:00 S\n", true, true],
  ["one rule twice, the same line (Egypt's copy)", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 1 0:00 1:00 D\n", false, true],
  // 95b's asia (3:00 wall) and europe (2:00s): one instant while DST is in force.
  ["one day at another time of day (95b's Russia)", "Rule Russia 1985 max - Mar lastSun 2:00s 1:00 D\nRule Russia 1984 max - Sep lastSun 3:00 0 K\nRule Russia 1984 max - Sep lastSun 2:00s 0 K\n", true, true],
  ["the same day in years that do not meet", "Rule Russia 1981 1982 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1983 1984 - Apr 1 0:00 1:00 S\n", false, false],
  ["two rules on other days", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 2 0:00 1:00 S\n", false, false],
];

describe("a Rule set that fires twice on one day", () => {
  for (const [what, rules, refused, zicRefuses] of cases) {
    test(`${what}: ${refused ? "refused" : "taken"}; today's zic ${zicRefuses ? "refuses" : "takes"} it`, () => {
      const text = rules + ZONE;
      const reason = repeatedRule(parseTzSources([{ name: "in.zi", text }]));
      const zic = zicTakes(text);
      expect(reason !== null).toBe(refused);
      expect(zic.ok).toBe(!zicRefuses);
      if (refused) expect(reason).toStartWith("Rule Russia fires twice on one day (in.zi:");
      if (zicRefuses) expect(zic.stderr).toContain("two rules for same instant");
    });
  }
});
