// A zone's offset split the way ICU splits it: raw (standard) offset and DST savings, in
// tzdb's "rearguard" form that ICU's data is built from. tzdb proper (vanguard) gives
// Europe/Dublin a negative save in winter and a save of 0 in summer (IST is its standard
// time); rearguard, and so ICU, calls winter GMT standard and summer IST daylight. Same for
// Africa/Windhoek 1994-2017 and Africa/Casablanca since 2018 (Ramadan's -1h). So: a
// negative save is standard time; a save of 0 between two negative-save periods is
// daylight time, with the neighbours' save turned around.
//
// One rearguard fact the vanguard data cannot carry: Namibia's last summer. In tzdata.zi,
// Windhoek's CAT (+02, save 0) from 2017-09-03 is the standard time that never ends. The
// rearguard section of tzdb's `africa` file (commented out in the main form, turned on by
// ziguard.awk, and so in ICU's data) keeps `1:00 Namibia %s 2017 Oct 24`: +01 with 1h of
// DST until the Namibian Time Act took effect, 2017-10-24 00:00 local, then `2:00 - CAT`.
// Unchanged in every release since 2017c: the same in 2026f as in ICU's 2025c.

import type { Period, ZoneTable } from "../tz/zone-table.ts";

export interface IcuOffsets {
  /** Standard offset in seconds. */
  raw: number;
  /** DST savings in seconds; ICU's "in daylight time" is sav != 0. */
  sav: number;
}

export function icuOffsetsOf(zones: ZoneTable, zone: number, period: Period): IcuOffsets {
  const { utoff, save } = period.type;
  if (save > 0) return { raw: utoff - save, sav: save };
  if (save < 0) return { raw: utoff, sav: 0 };
  if (period.start !== -Infinity && period.end !== Infinity) {
    const before = zones.periodAt(zone, period.start - 1).type.save;
    const after = zones.periodAt(zone, period.end).type.save;
    if (before < 0 && after < 0) return { raw: utoff + before, sav: -before };
  }
  return { raw: utoff, sav: 0 };
}

const NAMIBIA_LAST_DST = {
  name: "Africa/Windhoek",
  from: Date.UTC(2017, 8, 3, 1) / 1000,
  /** 2017-10-24 00:00 at +02. */
  until: Date.UTC(2017, 9, 23, 22) / 1000,
  offsets: { raw: 3600, sav: 3600 } as IcuOffsets,
};

function isWindhoek(zones: ZoneTable, zone: number): boolean {
  return zones.resolve(NAMIBIA_LAST_DST.name)?.zone === zone;
}

export function icuOffsetsAt(zones: ZoneTable, zone: number, t: number): IcuOffsets {
  const { from, until, offsets } = NAMIBIA_LAST_DST;
  if (t >= from && t < until && isWindhoek(zones, zone)) return offsets;
  return icuOffsetsOf(zones, zone, zones.periodAt(zone, t));
}

/**
 * ICU's check in its generic names (TZGNCore): does the zone use DST within 184 days of
 * `t`? That is, did the last change of (raw, sav) at or before `t` leave a DST period, or
 * does the next one enter a DST period, within that range.
 */
export function dstNearby(zones: ZoneTable, zone: number, t: number): boolean {
  const RANGE = 184 * 86400;
  // Namibia's last DST (rearguard, above) is within range of these instants.
  if (t >= NAMIBIA_LAST_DST.from - RANGE && t < NAMIBIA_LAST_DST.until + RANGE && isWindhoek(zones, zone)) return true;
  const here = zones.periodAt(zone, t);
  const now = icuOffsetsOf(zones, zone, here);
  // The previous change: walk back over periods ICU would not see as a transition.
  let start = here.start;
  for (let guard = 0; start !== -Infinity && guard < 16; guard++) {
    const before = zones.periodAt(zone, start - 1);
    const o = icuOffsetsOf(zones, zone, before);
    if (o.raw !== now.raw || o.sav !== now.sav) {
      if (t - start < RANGE && o.sav !== 0) return true;
      break;
    }
    start = before.start;
  }
  let end = here.end;
  for (let guard = 0; end !== Infinity && guard < 16; guard++) {
    const after = zones.periodAt(zone, end);
    const o = icuOffsetsOf(zones, zone, after);
    if (o.raw !== now.raw || o.sav !== now.sav) return end - t < RANGE && o.sav !== 0;
    end = after.end;
  }
  return false;
}
