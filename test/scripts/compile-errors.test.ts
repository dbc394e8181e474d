// Bad zic input fails the build with file:line and the reason, at the stage that knows.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileTzdb } from "../../scripts/tzdb/compile.ts";
import { TzParseError, TzResolveError } from "../../scripts/tzdb/errors.ts";

const compile = (text: string) => compileTzdb([{ name: "test.zi", text }]);

function errorOf(text: string): Error {
  try {
    compile(text);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the compile to fail");
}

describe("errors carry the file, the line and the reason", () => {
  const cases: [string, string, typeof TzParseError | typeof TzResolveError, string][] = [
    ["a Rule line with an unknown month", "# ok\nR X 2000 o - Foo 1 2 1 D\n", TzParseError, "test.zi:2: invalid month name \"Foo\""],
    ["a Rule line with too few fields", "R X 2000 o - Ap 1 2 1\n", TzParseError, "test.zi:1: wrong number of fields on Rule line (9, expected 10)"],
    ["an ambiguous month prefix", "R X 2000 o - Ma 1 2 1 D\n", TzParseError, "test.zi:1: invalid month name \"Ma\""],
    ["a bad AT time", "R X 2000 o - Ap 1 2:99 1 D\n", TzParseError, "test.zi:1: invalid time of day \"2:99\""],
    ["an unknown line type", "Q X\n", TzParseError, "test.zi:1: input line of unknown type \"Q\""],
    ["a FROM after TO", "R X 2001 2000 - Ap 1 2 1 D\n", TzParseError, "test.zi:1: starting year 2001 is after ending year 2000"],
    ["a zone name escaping its directory", "Z ../etc/passwd 0 - UTC\n", TzParseError, "test.zi:1: invalid zone name \"../etc/passwd\""],
    ["an unknown rule name", "Z A/B 1 Nope %sT\n", TzResolveError, "test.zi:1: unknown rule name \"Nope\" in zone A/B"],
    ["a link to nothing", "Z A/B 0 - GMT\nL Nowhere/City A/C\n", TzResolveError, "test.zi:2: link A/C points to Nowhere/City, which is not defined"],
    ["a duplicate zone", "Z A/B 0 - GMT\nZ A/B 1 - CET\n", TzResolveError, "test.zi:2: duplicate zone name A/B (first defined at test.zi:1)"],
  ];
  for (const [what, text, type, message] of cases) {
    test(what, () => {
      const error = errorOf(text);
      expect(error).toBeInstanceOf(type);
      expect(error.message).toBe(message);
    });
  }

  test("`bun run build` on a broken source exits 1 naming the file and line", () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-broken-"));
    writeFileSync(join(dir, "tzdata.zi"), "# version 2099z\nZ A/B 0 - GMT\nR X 2000 o - Foo 1 2 1 D\n");
    const result = Bun.spawnSync(["bun", "scripts/build.ts", "--tzdb-dir", dir, "--out", join(dir, "out")], {
      cwd: join(import.meta.dir, "..", ".."),
      stderr: "pipe",
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.toString()).toContain(`${join(dir, "tzdata.zi")}:3: invalid month name "Foo"`);
  }, 30_000);
});

describe("the zic input language", () => {
  const first = (text: string, zone = "A/B") => compile(text).zones.get(zone)!.transitions;

  test("long forms and compact forms compile to the same transitions", () => {
    const long = first(`Rule\tEU\t1981\tmaximum\t-\tMarch\tlastSunday\t1:00u\t1:00\tS
Rule\tEU\t1996\tmaximum\t-\tOctober\tlastSunday\t1:00u\t0\t-
Zone\tA/B\t0:30\t-\tLMT\t1900
\t\t\t1:00\tEU\tCE%sT
`);
    const compact = first("R EU 1981 ma - Mar lastSu 1u 1 S\nR EU 1996 ma - O lastSu 1u 0 -\nZ A/B 0:30 - LMT 1900\n1 EU CE%sT\n");
    expect(long.length).toBeGreaterThan(80); // 1900, 1981, 1996, then two a year to the horizon
    expect(long).toEqual(compact);
  });

  test("Sun>=29 in a February without one spills into March; Sun<=1 into the previous month", () => {
    const t = first("R X 2021 o - F Su>=22 0 1 D\nR X 2021 o - May Su<=1 0 0 S\nZ A/B 0 X X%sT\n");
    // 2021-02-28 is a Sunday; 2021-05-01 is a Saturday, so Sun<=1 is 2021-04-25.
    expect(t.map((x) => new Date(x.at * 1000).toISOString())).toEqual(["2021-02-28T00:00:00.000Z", "2021-04-24T23:00:00.000Z"]);
    const spill = first("R X 2023 o - F Su>=27 0 1 D\nZ A/B 0 X X%sT\n");
    expect(new Date(spill[0]!.at * 1000).toISOString()).toBe("2023-03-05T00:00:00.000Z");
  });

  test("24:00 and 25:00 are the next day's 00:00 and 01:00", () => {
    const t = first("R X 2020 o - Mar 1 24 1 D\nR X 2020 o - O 1 25 0 S\nZ A/B 0 X X%sT\n");
    expect(t.map((x) => new Date(x.at * 1000).toISOString())).toEqual(["2020-03-02T00:00:00.000Z", "2020-10-02T00:00:00.000Z"]);
  });

  test("negative SAVE with s/d suffixes sets isdst as written", () => {
    const t = first("R X 2020 o - Mar 1 0 -1d W\nR X 2020 o - O 1 0 0s S\nZ A/B 1 X %s\n");
    expect(t.map((x) => x.type)).toEqual([
      { utoff: 0, save: -3600, isdst: true, abbr: "W" },
      { utoff: 3600, save: 0, isdst: false, abbr: "S" },
    ]);
  });

  test("%z and STD/DST formats", () => {
    const t = compile("R X 2020 o - Mar 1 0 1 -\nR X 2020 o - O 1 0 0 -\nZ A/B 5:45 X %z\nZ C/D -3 X STD/DST\n");
    expect(t.zones.get("A/B")!.transitions.map((x) => x.type.abbr)).toEqual(["+0645", "+0545"]);
    expect(t.zones.get("C/D")!.transitions.map((x) => x.type.abbr)).toEqual(["DST", "STD"]);
  });

  test("an UNTIL is read with the offset in force before it (w, s and u suffixes)", () => {
    const at = (until: string) => new Date(first(`Z A/B 2 - X ${until}\n3 - Y\n`)[0]!.at * 1000).toISOString();
    expect(at("2020 Jun 1 2:00")).toBe("2020-06-01T00:00:00.000Z");
    expect(at("2020 Jun 1 2:00u")).toBe("2020-06-01T02:00:00.000Z");
    expect(at("2020 Jun 1 2:00s")).toBe("2020-06-01T00:00:00.000Z");
  });
});
