// Rule year types, read as the releases that used them read them: zic asked the release's
// yearistype.sh whether each year was of the rule's type. Our reader takes `even` and `odd`
// (the only ones IANA's data used, 92c-2000e) with that script's exact answers, refuses
// others and a typed single year (zic's own error), and a typed rule to `max` leaves the
// zone without a footer, its changes stored through 9999.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileTzdb } from "../../scripts/tzdb/compile.ts";
import { yearIsType } from "../../scripts/tzdb/year-types.ts";
import { storedReleases } from "../support/release-reference.ts";
import { mirrorFile } from "../support/third-party.ts";

const commitOf = (release: string) => /\(([0-9a-f]{40})\)$/.exec(storedReleases().find((r) => r.release === release)!.source)![1]!;

describe("Rule year types", () => {
  test("even and odd answer as the releases' own yearistype.sh does, for every year asked", () => {
    // The oldest and the newest release with year types; the script grew two more types in 96k.
    for (const release of ["92c", "2000e"]) {
      const dir = mkdtempSync(join(tmpdir(), "zonetime-yearistype-"));
      const script = join(dir, "yearistype.sh");
      writeFileSync(script, mirrorFile("eggert/tz", "yearistype.sh", commitOf(release)), { mode: 0o755 });
      const years = [-11, -2, -1, 0, 1, 2, 9, 10, 1899, 1900, 1990, 1991, 1994, 1995, 2000, 2037, 9999];
      for (const type of ["even", "odd"] as const) {
        for (const year of years) {
          const asked = Bun.spawnSync(["sh", script, String(year), type]).exitCode === 0;
          expect(`${release} ${year} ${type}: ${yearIsType(year, type)}`).toBe(`${release} ${year} ${type}: ${asked}`);
        }
      }
    }
  });

  test("a typed rule fires only in the years of its type", () => {
    const tz = compileTzdb([{ name: "t.zi", text: "R T 1990 1995 even Mar 1 2 1 D\nR T 1990 1995 odd Ap 1 2 1 D\nR T 1990 1995 - O 1 2 0 S\nZ A/B 0 T %sT\n" }]);
    const starts = tz.zones.get("A/B")!.transitions.filter((t) => t.type.isdst).map((t) => new Date(t.at * 1000).toISOString().slice(0, 7));
    expect(starts).toEqual(["1990-03", "1991-04", "1992-03", "1993-04", "1994-03", "1995-04"]);
  });

  test("a year type no release used, and a typed single year, are refused naming the line", () => {
    expect(() => compileTzdb([{ name: "t.zi", text: "R T 1990 2000 uspres Mar 1 2 1 D\nZ A/B 0 T %sT\n" }]))
      .toThrow('t.zi:1: year type "uspres" is not one we read');
    expect(() => compileTzdb([{ name: "t.zi", text: "R T 1990 o even Mar 1 2 1 D\nZ A/B 0 T %sT\n" }]))
      .toThrow("t.zi:1: typed single year");
  });

  test("92c's South Australia, typed to max: no footer, no TZ string, its changes alternate through 9999", () => {
    const source = storedReleases().find((r) => r.release === "92c")!;
    const zone = compileTzdb([{ name: "92c", text: source.text }]).zones.get("Australia/South")!;
    expect(zone.footer).toBeNull();
    expect(zone.posixTz).toBeNull();
    // `Rule AS 1990 max even Mar Sun>=22` and `odd Mar Sun>=1`: DST ends in March's 4th week in even years.
    const marchEnds = zone.transitions.filter((t) => !t.type.isdst && new Date(t.at * 1000).getUTCMonth() === 2);
    const late = marchEnds.filter((t) => new Date(t.at * 1000).getUTCFullYear() >= 1990);
    expect(new Date(late.at(-1)!.at * 1000).getUTCFullYear()).toBe(9999);
    for (const t of late) {
      const d = new Date(t.at * 1000);
      expect(`${d.getUTCFullYear()}: ${d.getUTCDate() + 1 >= 22}`).toBe(`${d.getUTCFullYear()}: ${yearIsType(d.getUTCFullYear(), "even")}`);
    }
  });
});
