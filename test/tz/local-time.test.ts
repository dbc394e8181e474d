// A local date-time in a zone -> the instant, with Temporal's disambiguation, against
// Python's zoneinfo (PEP 495 fold) on TZif files the machine's zic compiled from the same
// source: fold=0 is Temporal's `compatible`; in a gap fold=1 is `earlier` and fold=0
// `later`, in an overlap fold=0 is `earlier` and fold=1 `later`.

import { describe, expect, test } from "bun:test";
import { civilFromDays, daysFromCivil, SECONDS_PER_DAY } from "../../server/core/calendar.ts";
import { DISAMBIGUATIONS, instantOfLocal, type Disambiguation, type LocalTimeResolution } from "../../server/tz/local-time.ts";
import { clockChanges, wallClockChange } from "../../server/tz/zone-transitions.ts";
import { testZoneTable, utc } from "../support/zone-table.ts";
import { yearStart } from "../support/zic-reference.ts";
import { referenceTzdir } from "../support/tzdb-reference.ts";
import { pinnedZoneTable } from "../support/pinned-tzdb.ts";
import { zoneinfoInstants, type LocalQuery, type ZoneinfoAnswer } from "../support/zoneinfo-reference.ts";

const H = 3600;

/** Seconds since 1970-01-01T00:00 on the local clock, from an ISO local date-time. */
const local = (iso: string) => utc(`${iso}Z`);

/** Temporal's answer expressed in PEP 495 terms, from the reference's two folds. */
function expected(answer: ZoneinfoAnswer, mode: Disambiguation): LocalTimeResolution {
  const { fold0, fold1, kind } = answer;
  if (kind === "unique") return { kind, instant: fold0 };
  if (mode === "reject") return { kind, instant: null };
  if (mode === "compatible") return { kind, instant: fold0 };
  const earlier = kind === "skipped" ? fold1 : fold0;
  const later = kind === "skipped" ? fold0 : fold1;
  return { kind, instant: mode === "earlier" ? earlier : later };
}

/** A small deterministic PRNG (mulberry32), so a failure names a sample that repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function toQuery(name: string, seconds: number): LocalQuery {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const s = seconds - days * SECONDS_PER_DAY;
  const d = civilFromDays(days);
  return [name, d.year, d.month, d.day, Math.floor(s / H), Math.floor((s % H) / 60), s % 60];
}

describe("local time -> instant vs Python zoneinfo", async () => {
  const table = await testZoneTable();
  const tzdir = referenceTzdir();

  test("12,000 local times (half within two hours of a change), all four modes: 0 differences", async () => {
    const next = random(13);
    const names = [...table.names];
    const samples: { name: string; local: number }[] = [];
    // Half near a real change: within two hours of the wall clock just before or at it.
    const changes = names.flatMap((name) =>
      clockChanges(table, table.resolve(name)!.zone, yearStart(1850), yearStart(2101), Infinity).changes.map((c) => ({ name, c })));
    while (samples.length < 6000) {
      const { name, c } = changes[Math.floor(next() * changes.length)]!;
      const wall = wallClockChange(c);
      const around = next() < 0.5 ? wall.localBefore : wall.localAt;
      samples.push({ name, local: around + Math.floor((next() * 2 - 1) * 2 * H) });
    }
    // Half anywhere: mostly 1800-2200, a few across the whole of years 0001-9999.
    while (samples.length < 12000) {
      const name = names[Math.floor(next() * names.length)]!;
      const [lo, hi] = next() < 0.95 ? [1800, 2200] : [1, 9999];
      const from = daysFromCivil(lo, 1, 1) * SECONDS_PER_DAY;
      const to = daysFromCivil(hi, 12, 31) * SECONDS_PER_DAY;
      samples.push({ name, local: from + Math.floor(next() * (to - from)) });
    }
    const answers = await zoneinfoInstants(tzdir, samples.map((s) => toQuery(s.name, s.local)));
    const differences: string[] = [];
    const kinds = { unique: 0, skipped: 0, repeated: 0 };
    samples.forEach((s, i) => {
      const answer = answers[i]!;
      kinds[answer.kind]++;
      for (const mode of DISAMBIGUATIONS) {
        const ours = instantOfLocal(table, table.resolve(s.name)!.zone, s.local, mode);
        const theirs = expected(answer, mode);
        if (ours.kind !== theirs.kind || ours.instant !== theirs.instant) {
          if (differences.length < 20) differences.push(`${toQuery(s.name, s.local).join(" ")} ${mode}: ours ${JSON.stringify(ours)}, zoneinfo ${JSON.stringify(theirs)}`);
        }
      }
    });
    console.log(`local time vs zoneinfo: ${samples.length} local times x 4 modes, ${kinds.unique} unique, ${kinds.skipped} skipped, ${kinds.repeated} repeated, ${differences.length} differences`);
    expect(differences).toEqual([]);
    // The near-change half really exercises gaps and overlaps.
    expect(kinds.skipped).toBeGreaterThan(500);
    expect(kinds.repeated).toBeGreaterThan(500);
  }, 60_000);
});

interface Row {
  zone: string;
  local: string;
  kind: "unique" | "skipped" | "repeated";
  /** The UT instants for compatible, earlier, later. */
  compatible: string;
  earlier: string;
  later: string;
  why: string;
}

const rows: Row[] = [
  { zone: "America/New_York", local: "2026-03-08T02:30:00", kind: "skipped",
    compatible: "2026-03-08T07:30:00Z", earlier: "2026-03-08T06:30:00Z", later: "2026-03-08T07:30:00Z",
    why: "spring forward 02:00 -> 03:00: 02:30 never shows; compatible reads it on the clock before the jump (EST)" },
  { zone: "America/New_York", local: "2026-11-01T01:30:00", kind: "repeated",
    compatible: "2026-11-01T05:30:00Z", earlier: "2026-11-01T05:30:00Z", later: "2026-11-01T06:30:00Z",
    why: "fall back 02:00 -> 01:00: 01:30 shows twice, EDT first; compatible takes the earlier" },
  { zone: "Australia/Lord_Howe", local: "2026-10-04T02:15:00", kind: "skipped",
    compatible: "2026-10-03T15:45:00Z", earlier: "2026-10-03T15:15:00Z", later: "2026-10-03T15:45:00Z",
    why: "a 30-minute DST: the gap is 02:00-02:30, so the two answers are 30 minutes apart" },
  { zone: "Australia/Lord_Howe", local: "2026-04-05T01:45:00", kind: "repeated",
    compatible: "2026-04-04T14:45:00Z", earlier: "2026-04-04T14:45:00Z", later: "2026-04-04T15:15:00Z",
    why: "and the 30-minute overlap 01:30-02:00 in April" },
  { zone: "Europe/Dublin", local: "2026-10-25T01:30:00", kind: "repeated",
    compatible: "2026-10-25T00:30:00Z", earlier: "2026-10-25T00:30:00Z", later: "2026-10-25T01:30:00Z",
    why: "negative SAVE: the clock falls back into GMT, which is the isdst period; the overlap is decided by offsets, not the flag" },
  { zone: "Europe/Dublin", local: "2026-03-29T01:30:00", kind: "skipped",
    compatible: "2026-03-29T01:30:00Z", earlier: "2026-03-29T00:30:00Z", later: "2026-03-29T01:30:00Z",
    why: "and springs forward out of DST (GMT, isdst) into standard time (IST)" },
  { zone: "Pacific/Apia", local: "2011-12-30T12:00:00", kind: "skipped",
    compatible: "2011-12-30T22:00:00Z", earlier: "2011-12-29T22:00:00Z", later: "2011-12-30T22:00:00Z",
    why: "Samoa skipped 2011-12-30 whole: a 24-hour gap, earlier and later a day apart" },
  { zone: "Africa/Casablanca", local: "2026-02-15T02:30:00", kind: "repeated",
    compatible: "2026-02-15T01:30:00Z", earlier: "2026-02-15T01:30:00Z", later: "2026-02-15T02:30:00Z",
    why: "Ramadan 2026: Morocco falls back 03:00 -> 02:00 into +00, a negative-save DST" },
  { zone: "Africa/Casablanca", local: "2026-03-22T02:30:00", kind: "skipped",
    compatible: "2026-03-22T02:30:00Z", earlier: "2026-03-22T01:30:00Z", later: "2026-03-22T02:30:00Z",
    why: "and springs forward 02:00 -> 03:00 when Ramadan ends" },
  { zone: "Asia/Kathmandu", local: "2026-11-21T12:00:00", kind: "unique",
    compatible: "2026-11-21T06:15:00Z", earlier: "2026-11-21T06:15:00Z", later: "2026-11-21T06:15:00Z",
    why: "no change nearby: every mode agrees, a 45-minute offset" },
];

describe("local time pitfalls (tzdb 2026f, the pinned fixture)", async () => {
  const table = await pinnedZoneTable();
  for (const row of rows) {
    test(`${row.zone} ${row.local}: ${row.why}`, () => {
      const zone = table.resolve(row.zone)!.zone;
      const at = (mode: Disambiguation) => instantOfLocal(table, zone, local(row.local), mode);
      expect(at("compatible")).toEqual({ kind: row.kind, instant: utc(row.compatible) });
      expect(at("earlier")).toEqual({ kind: row.kind, instant: utc(row.earlier) });
      expect(at("later")).toEqual({ kind: row.kind, instant: utc(row.later) });
      expect(at("reject")).toEqual({ kind: row.kind, instant: row.kind === "unique" ? utc(row.compatible) : null });
    });
  }

  test("a fraction of a second is kept", () => {
    const zone = table.resolve("America/New_York")!.zone;
    expect(instantOfLocal(table, zone, local("2026-07-01T12:00:00") + 0.25, "compatible").instant).toBe(utc("2026-07-01T16:00:00Z") + 0.25);
  });
});
