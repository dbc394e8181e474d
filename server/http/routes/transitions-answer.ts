// The body of /timezone/{name}/transitions, and the entry shape /timezone/{name}/info
// reuses for its next transition. Each entry is the state from that instant on (as a time
// object names its fields), the state before it, and what the wall clock does.

import { formatDateTime, formatOffset } from "../../core/time-format.ts";
import type { LocalTimeType } from "../../formats/zone-model.ts";
import type { ResolvedName, ZoneTable } from "../../tz/zone-table.ts";
import { clockChanges, wallClockChange, type ClockChange } from "../../tz/zone-transitions.ts";
import { utcSuffix, type Profile } from "../../time-object/time-object.ts";

export interface TransitionEntry {
  unixtime: number;
  at: string;
  utc_offset: string;
  abbreviation: string;
  dst: boolean;
  dst_offset: number;
  raw_offset: number;
  utc_offset_before: string;
  abbreviation_before: string;
  dst_before: boolean;
  local_before: string;
  local_at: string;
  local_change: "gap" | "overlap" | "none";
}

/** An instant as the profile writes UTC: `...Z` at the root, `...+00:00` under /api. */
export function formatUtc(seconds: number, profile: Profile): string {
  return formatDateTime(seconds) + utcSuffix(profile);
}

const dstOffset = (t: LocalTimeType) => (t.isdst ? t.save : 0);

export function transitionEntry(change: ClockChange, profile: Profile): TransitionEntry {
  const wall = wallClockChange(change);
  const { after, before } = change;
  return {
    unixtime: change.at,
    at: formatUtc(change.at, profile),
    utc_offset: formatOffset(after.utoff),
    abbreviation: after.abbr,
    dst: after.isdst,
    dst_offset: dstOffset(after),
    raw_offset: after.utoff - dstOffset(after),
    utc_offset_before: formatOffset(before.utoff),
    abbreviation_before: before.abbr,
    dst_before: before.isdst,
    local_before: formatDateTime(wall.localBefore),
    local_at: formatDateTime(wall.localAt),
    local_change: wall.effect,
  };
}

export interface TransitionsAnswer {
  timezone: string;
  from: string;
  to: string;
  transitions: TransitionEntry[];
  /** Where the entries left out by the cap begin: ask again with `from` set to it. */
  next_from: string | null;
}

export function transitionsAnswer(zones: ZoneTable, name: ResolvedName, from: number, to: number, profile: Profile): TransitionsAnswer {
  const { changes, nextFrom } = clockChanges(zones, name.zone, from, to);
  return {
    timezone: name.name,
    from: formatUtc(from, profile),
    to: formatUtc(to, profile),
    transitions: changes.map((c) => transitionEntry(c, profile)),
    next_from: nextFrom === null ? null : formatUtc(nextFrom, profile),
  };
}

/** `key: value` lines for a flat object, a null as an empty value. */
export function textLines(o: object, prefix = ""): string {
  let out = "";
  for (const [key, value] of Object.entries(o)) {
    if (value !== null && typeof value === "object") continue;
    out += `${prefix}${key}: ${value === null ? "" : String(value)}\n`;
  }
  return out;
}

/** `.txt`: the window's lines, then each transition's lines after a blank line. */
export function transitionsText(answer: TransitionsAnswer): string {
  let out = textLines(answer);
  for (const entry of answer.transitions) out += `\n${textLines(entry)}`;
  return out;
}
