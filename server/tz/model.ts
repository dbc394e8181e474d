// The compiled form of one zone, as the compiler produces it and the format module
// stores it: what the local clock says (a "local time type", TZif's ttinfo) from each
// transition on, and the rules that keep applying after the last stored transition.

import type { FiringRule } from "./rule-firings.ts";

export interface LocalTimeType {
  /** UT offset in seconds (standard offset + save). */
  utoff: number;
  /** The DST amount in seconds: negative for Europe/Dublin in winter, 7200 for Antarctica/Troll. */
  save: number;
  /** isdst as tzdb defines it (Dublin's winter GMT is isdst, its summer IST is not). */
  isdst: boolean;
  abbr: string;
}

export interface Transition {
  /** Unix seconds (UT) from which `type` holds. */
  at: number;
  type: LocalTimeType;
}

/** A Rule line that is still in force at the end of the data (TO = max), ready to fire. */
export interface FooterRule extends FiringRule {
  type: LocalTimeType;
}

/** What TZif calls the footer: the zone's last standard offset and its ever-repeating rules. */
export interface Footer {
  stdoff: number;
  rules: FooterRule[];
}

export interface CompiledZone {
  /** The type before the first transition (usually LMT). */
  initial: LocalTimeType;
  transitions: Transition[];
  /** Rules that apply after the last transition; null when the last type holds forever. */
  footer: Footer | null;
  /** The POSIX TZ string zic writes as the TZif footer; null where zic writes an empty one. */
  posixTz: string | null;
  /**
   * From this instant on the POSIX TZ string alone describes the zone (zic's TZstarttime,
   * the last transition a `-b slim` TZif file keeps); -Infinity when it always did.
   */
  posixFrom: number;
}

export function sameType(a: LocalTimeType, b: LocalTimeType): boolean {
  return a.utoff === b.utoff && a.save === b.save && a.isdst === b.isdst && a.abbr === b.abbr;
}
