// The import leaves out a release whose Rule set fires twice at one instant (93g-96f:
// Russia's rules in asia and europe with other LETTERs, Egypt's copied into asia): today's
// zic refuses such input, so no reference can say which twin the zic of the time applied.
// The check is held against the machine's zic on the same input.

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
const cases: [string, string, boolean][] = [
  // 95b's asia and europe both define Russia's 1981-1984 rule, with LETTERs D and S.
  ["one rule twice, other LETTERs", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 1 0:00 1:00 S\n", true],
  ["one rule twice, the same line (Egypt's copy)", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 1 0:00 1:00 D\n", true],
  ["the same day in years that do not meet", "Rule Russia 1981 1982 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1983 1984 - Apr 1 0:00 1:00 S\n", false],
  ["two rules on other days", "Rule Russia 1981 1984 - Apr 1 0:00 1:00 D\nRule Russia 1981 1983 - Oct 1 0:00 0 K\nRule Russia 1981 1984 - Apr 2 0:00 1:00 S\n", false],
];

describe("a Rule set that fires twice at one instant", () => {
  for (const [what, rules, repeated] of cases) {
    test(`${what}: ${repeated ? "refused, as zic refuses it" : "taken, as zic takes it"}`, () => {
      const text = rules + ZONE;
      const reason = repeatedRule(parseTzSources([{ name: "in.zi", text }]));
      const zic = zicTakes(text);
      expect(reason !== null).toBe(repeated);
      expect(zic.ok).toBe(!repeated);
      if (repeated) {
        expect(reason).toStartWith("Rule Russia fires twice at one instant (in.zi:1 and line 3)");
        expect(zic.stderr).toContain("two rules for same instant");
      }
    });
  }
});
