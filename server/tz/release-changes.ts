// Where two tzdb releases disagree about one name: the exact UTC windows in which their
// answers (UT offset, abbreviation or DST flag) differ. Both period sequences are walked
// together; a window is a stretch over which both answers stay the same and differ, so each
// window carries one answer from each release.

import type { LocalTimeType } from "../formats/zone-model.ts";
import type { ZoneTable } from "./zone-table.ts";

export interface ChangeWindow {
  /** Unix seconds, inclusive. */
  start: number;
  /** Unix seconds, exclusive. */
  end: number;
  before: LocalTimeType;
  after: LocalTimeType;
}

const differ = (a: LocalTimeType, b: LocalTimeType) => a.utoff !== b.utoff || a.abbr !== b.abbr || a.isdst !== b.isdst;

/** The windows within [start, end) where `a`'s zone `za` and `b`'s zone `zb` answer differently. */
export function changeWindows(a: ZoneTable, za: number, b: ZoneTable, zb: number, start: number, end: number): ChangeWindow[] {
  const windows: ChangeWindow[] = [];
  for (let t = start; t < end;) {
    const pa = a.periodAt(za, t);
    const pb = b.periodAt(zb, t);
    const next = Math.min(pa.end, pb.end, end);
    if (differ(pa.type, pb.type)) {
      const last = windows[windows.length - 1];
      // Extend the window while both answers stay the same (a transition to an equal state).
      if (last !== undefined && last.end === t && !differ(last.before, pa.type) && !differ(last.after, pb.type)) last.end = next;
      else windows.push({ start: t, end: next, before: pa.type, after: pb.type });
    }
    t = next;
  }
  return windows;
}
