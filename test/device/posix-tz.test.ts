// Our reading of POSIX TZ strings (server/device/posix-tz.ts) against the C libraries
// themselves, independently of any zone table: every footer zic writes that we call safe,
// and the forms the device strings use (all-year DST, one year's Jn rules, rules near New
// Year, where the libcs take the rules of the instant's UTC year), at each rule instant
// and either side of it, and around each UTC New Year. And the forms we refuse.

import { describe, expect, test } from "bun:test";
import { daysFromCivil, SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import { parsePosixTz, readingAt, ruleInstants, UnsafePosixTz } from "../../server/device/posix-tz.ts";
import { buildHarnesses, readAll } from "../support/libc-harness.ts";
import { testZoneTable } from "../support/zone-table.ts";

const EXTRA = [
  "EST5EDT,0/0,J365/25", // tzfile(5)'s all-year DST: wrong for hours after each UTC New Year
  "<+03>-3<+04>,0/0,J365/25",
  "XXX3EDT4,0/0,J365/23", // zic's own all-year DST
  "CST5CDT,J326/19,J311/1", // Havana, November 2026
  "<-02>2<-01>,M3.5.6/23,M10.5.0/0", // Nuuk with its -1 moved onto Saturday
  "<-02>2<-01>,J83/23,J301/0",
  "<+13>-13<+14>,J1/0:30,J300", // a change half an hour into the local year, east of UTC
  "NZST-12NZDT,M9.5.0,M4.1.0/3",
  "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
  "AAA-1BBB,J365/167,J60/0",
  "LMT-0:53:28",
];

const yearStart = (y: number) => daysFromCivil(y, 1, 1) * SECONDS_PER_DAY;

describe("our evaluator against glibc, musl and newlib", async () => {
  const table = await testZoneTable();
  const strings = new Set(EXTRA);
  for (const name of table.names) {
    const footer = table.posixTz(table.resolve(name)!.zone)?.tz;
    if (footer === undefined) continue;
    try {
      parsePosixTz(footer);
      strings.add(footer);
    } catch (error) {
      if (!(error instanceof UnsafePosixTz)) throw error;
    }
  }
  const queries: { tz: string; t: number }[] = [];
  for (const text of strings) {
    const tz = parsePosixTz(text);
    const instants = new Set<number>();
    for (let y = 2026; y <= 2031; y++) {
      for (const d of [-7200, -1, 0, 1, 3600, 7200, 43200]) instants.add(yearStart(y) + d);
      if (tz.dst === null) continue;
      const { start, end } = ruleInstants(tz, y);
      for (const c of [start, end]) for (const d of [-3600, -1, 0, 1, 3600]) instants.add(c + d);
    }
    for (const t of instants) queries.push({ tz: text, t });
  }

  for (const libc of ["glibc", "musl", "newlib"]) {
    test(`${libc} reads ${strings.size} strings at ${queries.length} instants as we do`, async () => {
      const harnesses = buildHarnesses();
      const executable = harnesses.run.get(libc);
      if (executable === undefined) {
        console.warn(harnesses.skipped.join("\n"));
        return;
      }
      const readings = await readAll(executable, queries);
      const wrong: string[] = [];
      queries.forEach((q, i) => {
        const tz = parsePosixTz(q.tz);
        const ours = readingAt(tz, q.t);
        const theirs = readings[i]!;
        const same = (r: typeof ours) => r !== null && r.utoff === theirs.utoff && r.abbr === theirs.abbr && r.isdst === theirs.isdst;
        // musl may take the previous year's rules at exactly 00:00:00 UTC on 1 January (string-check.ts refuses strings where that matters).
        const year = new Date(q.t * 1000).getUTCFullYear();
        if (libc === "musl" && q.t === yearStart(year) && same(readingAt(tz, q.t, year - 1))) return;
        if (!same(ours)) {
          wrong.push(`TZ=${q.tz} at ${new Date(q.t * 1000).toISOString()}: ${libc} ${theirs.utoff} ${theirs.abbr} ${theirs.isdst}, ours ${JSON.stringify(ours)}`);
        }
      });
      expect(wrong.slice(0, 10)).toEqual([]);
    }, 60_000);
  }

  test("the UTC-year reading: tzfile(5)'s all-year DST shows standard time after New Year west of UTC", () => {
    const tz = parsePosixTz("EST5EDT,0/0,J365/25");
    expect(readingAt(tz, yearStart(2027) + 7200)).toEqual({ utoff: -18000, abbr: "EST", isdst: false });
    expect(readingAt(tz, yearStart(2027) + 6 * 3600)).toEqual({ utoff: -14400, abbr: "EDT", isdst: true });
  });
});

describe("forms refused as unsafe for devices", () => {
  for (const [text, why] of [
    ["<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "signed rule time"],
    ["EST5EDT", "DST without rules"],
    ["AB5", "abbreviation"],
    ["<ABCDEFG>5", "abbreviation"],
    ["AAA5BBB5,M3.2.0,M11.1.0", "equals the standard offset"],
    ["AAA5BBB,M3.2.0/168,M11.1.0", "beyond 167 hours"],
    ["AAA25", "offset beyond 24 hours"],
    ["AAA5BBB,J0,J365", "Jn out of 1-365"],
  ]) {
    test(`${text}: ${why}`, () => {
      expect(() => parsePosixTz(text!)).toThrow(why!);
    });
  }
  test("signed rule times are read only when asked for (to move them onto the day before)", () => {
    expect(parsePosixTz("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", { signedRuleTimes: true }).start).toEqual({ date: { kind: "M", month: 3, week: 5, weekday: 0 }, time: -3600 });
  });
});
