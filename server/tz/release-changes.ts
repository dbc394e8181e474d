// Where two tzdb releases disagree about one name: the exact UTC windows in which their
// answers (UT offset, abbreviation or DST flag) differ. Both period sequences are walked
// together; a window is a stretch over which both answers stay the same and differ, so each
// window carries one answer from each release.

import type { LocalTimeType } from "../formats/zone-model.ts";
import type { FooterData, ZoneTable } from "./zone-table.ts";

export interface ChangeWindow {
  /** Unix seconds, inclusive. */
  start: number;
  /** Unix seconds, exclusive. */
  end: number;
  before: LocalTimeType;
  after: LocalTimeType;
}

const differ = (a: LocalTimeType, b: LocalTimeType) => a.utoff !== b.utoff || a.abbr !== b.abbr || a.isdst !== b.isdst;

/** Whether two footers fire the same rules (or both let the last type hold forever). */
function sameFooter(fa: FooterData | null, fb: FooterData | null): boolean {
  if (fa === null || fb === null) return fa === fb;
  return fa.stdoff === fb.stdoff && JSON.stringify(fa.rules) === JSON.stringify(fb.rules);
}

/** The windows within [start, end) where `a`'s zone `za` and `b`'s zone `zb` answer differently. */
export function changeWindows(a: ZoneTable, za: number, b: ZoneTable, zb: number, start: number, end: number): ChangeWindow[] {
  const windows: ChangeWindow[] = [];
  // Past both zones' last stored transitions, each answers from its footer alone: with the
  // same footer, and the same answer at that point, they agree until the end of time. A walk
  // stops there instead of firing the rules year after year to `end` (most names between
  // two releases: their changes lie in the past), which also made most of the walk's garbage.
  const agreeOnceSame = sameFooter(a.footer(za), b.footer(zb)) ? Math.max(a.lastStoredTransition(za), b.lastStoredTransition(zb)) : Infinity;
  for (let t = start; t < end; ) {
    const pa = a.periodAt(za, t);
    const pb = b.periodAt(zb, t);
    if (t > agreeOnceSame && !differ(pa.type, pb.type)) break;
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
