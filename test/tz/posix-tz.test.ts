// posix_tz: the POSIX TZ string zic writes as the TZif footer, for every name, and the
// instant from which it alone describes the zone. Checked two ways: byte for byte against
// the footer of the files the machine's zic compiles from the same source, and by reading
// each string back (an evaluator of its own) and holding what it says against our table
// from that instant to ten years past the last stored transition.

import { describe, expect, test } from "bun:test";
import { encodeZones, decodeZones, ZONES_FORMAT_MINOR } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { clockChanges } from "../../server/tz/zone-transitions.ts";
import { compileTzdb, toTableInput } from "../../scripts/tzdb/compile.ts";
import { testZoneTable, utc } from "../support/zone-table.ts";
import { yearStart } from "../support/zic-reference.ts";
import { referenceTzdir, zicNames } from "../support/tzdb-reference.ts";
import { pinnedZoneTable } from "../support/pinned-tzdb.ts";
import { tzifFooter } from "../support/zdump-verbose.ts";
import { parsePosixTz, posixChanges, type PosixType } from "../support/posix-tz-rule.ts";

const TEN_YEARS = 10 * 365.2425 * 86400;
const show = (t: PosixType) => `${t.utoff}s ${t.abbr}${t.isdst ? " dst" : ""}`;
const iso = (t: number) => new Date(t * 1000).toISOString().replace(".000", "");

interface Row {
  zone: string;
  posix: string;
  from: string | null;
  why: string;
}

// Expected strings are tzdb 2026f's as zic writes them, so these rows read the pinned 2026f fixture.
const rows: Row[] = [
  { zone: "America/New_York", posix: "EST5EDT,M3.2.0,M11.1.0", from: "2007-03-11T07:00:00Z",
    why: "the classic: 2:00 transition times are omitted; the rules of 2007 on" },
  { zone: "EST5EDT", posix: "EST5EDT,M3.2.0,M11.1.0", from: "2007-03-11T07:00:00Z",
    why: "2024b made it a link to America/New_York: a link answers with its target's footer" },
  { zone: "Asia/Kathmandu", posix: "<+0545>-5:45", from: "1985-12-31T18:30:00Z",
    why: "a numeric abbreviation is quoted in <>; minutes after a colon" },
  { zone: "Asia/Gaza", posix: "EET-2EEST,M3.4.4/50,M10.4.4/50", from: "2086-10-25T23:00:00Z",
    why: "Saturday-before rules become Thursday plus 50 hours (RFC 9636 hours above 24); Ramadan dates are listed until 2086" },
  { zone: "Asia/Jerusalem", posix: "IST-2IDT,M3.4.4/26,M10.5.0", from: "2013-03-29T00:00:00Z",
    why: "Friday before the last Sunday: 'Fri>=23' as the 4th Thursday at 26:00" },
  { zone: "America/Nuuk", posix: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", from: "2023-10-29T01:00:00Z",
    why: "EU rules at 1:00 UT read on a -02 clock: a negative hour, -1" },
  { zone: "Europe/Dublin", posix: "IST-1GMT0,M10.5.0,M3.5.0/1", from: "1996-03-31T01:00:00Z",
    why: "negative SAVE: GMT in winter is the DST (second) part" },
  { zone: "Australia/Lord_Howe", posix: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", from: "2008-04-05T15:00:00Z",
    why: "a 30-minute SAVE: the DST offset is written out, as it is not one hour" },
  { zone: "Antarctica/Troll", posix: "<+00>0<+02>-2,M3.5.0/1,M10.5.0/3", from: "2005-02-12T00:00:00Z",
    why: "a two-hour SAVE, times shifted from 1:00u; the station's rules from its opening on" },
  { zone: "Africa/Casablanca", posix: "<+00>0", from: "2026-09-20T01:00:00Z",
    why: "2026f: Ramadan rules end, permanent +00 from the last stored transition" },
  { zone: "Etc/GMT-14", posix: "<+14>-14", from: null,
    why: "one offset for all time: the string describes the whole history" },
];

describe("posix_tz", async () => {
  const table = await testZoneTable();
  const tzdir = referenceTzdir();

  test("every name equals the TZif footer zic writes: 0 differences", () => {
    const differences: string[] = [];
    for (const name of table.names) {
      const ours = table.posixTz(table.resolve(name)!.zone)?.tz ?? "";
      const zic = tzifFooter(tzdir, name);
      if (ours !== zic) differences.push(`${name}: ours "${ours}", zic "${zic}"`);
    }
    expect([...table.names].sort()).toEqual(zicNames());
    expect(differences).toEqual([]);
  });

  test("each string, read back, says what our table says from its start to ten years past the last stored transition", () => {
    const differences: string[] = [];
    let changes = 0;
    for (const name of table.names) {
      const zone = table.resolve(name)!.zone;
      const posix = table.posixTz(zone)!;
      const rule = parsePosixTz(posix.tz);
      const lo = Math.max(posix.from, yearStart(1800));
      const hi = Math.max(table.lastStoredTransition(zone), lo) + TEN_YEARS;
      const expected = posixChanges(rule, lo, hi);
      const at = table.findPeriod(zone, lo).type;
      if (show(at) !== show(expected.initial)) differences.push(`${name}: at ${iso(lo)} ours ${show(at)}, string ${show(expected.initial)}`);
      const ours = clockChanges(table, zone, lo + 1, hi, Infinity).changes.map((c) => `${iso(c.at)} ${show(c.after)}`);
      const theirs = expected.changes.map((c) => `${iso(c.at)} ${show(c.type)}`);
      changes += ours.length;
      if (ours.join("\n") !== theirs.join("\n")) differences.push(`${name}: ours ${ours.slice(0, 3)} vs string ${theirs.slice(0, 3)}`);
    }
    expect(differences).toEqual([]);
    expect(changes).toBeGreaterThan(10000);
  });

  const pinned = await pinnedZoneTable();
  for (const row of rows) {
    test(`${row.zone}: ${row.posix} (${row.why})`, () => {
      const posix = pinned.posixTz(pinned.resolve(row.zone)!.zone)!;
      expect(posix.tz).toBe(row.posix);
      expect(posix.from).toBe(row.from === null ? -Infinity : utc(row.from));
    });
  }

  test("a minor-0 zones.bin (written before posix_tz existed) still reads: same periods, no string", async () => {
    // Written by the format-1.0 encoder (main at 0983ff8) from the source beside it.
    const fixture = `${import.meta.dir}/../fixtures/zones-format-1.0`;
    const old = await ZoneTable.load(`${fixture}.bin`);
    const source = [{ name: "zones-format-1.0.zi", text: await Bun.file(`${fixture}.zi`).text() }];
    const bytes = encodeZones(toTableInput(compileTzdb(source), "2026-11-21T00:00:00Z"));
    expect(decodeZones(bytes.buffer as ArrayBuffer, "new.bin").formatMinor).toBe(ZONES_FORMAT_MINOR);
    const current = ZoneTable.fromBuffer(bytes.buffer as ArrayBuffer, "new.bin");
    expect(old.names).toEqual(current.names);
    for (const name of old.names) {
      const a = old.resolve(name)!.zone;
      const b = current.resolve(name)!.zone;
      expect(old.posixTz(a)).toBeNull();
      expect(current.posixTz(b)).not.toBeNull();
      for (let t = yearStart(1850); t < yearStart(2150); t += 86400 * 7) {
        expect(old.findPeriod(a, t)).toEqual(current.findPeriod(b, t));
      }
    }
  });
});
