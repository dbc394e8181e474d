// The bodies of /timezone/{name}/device and the bulk /device (JSON, .txt, and the
// two-column CSV that nayarsystems/posix_tz_db made the format of zone dropdowns):
// a TZ string right from the instant asked about on glibc, musl and newlib, the instant
// it stops being right (null: never, on these rules) and when to ask again.

import { LAST_RFC3339_SECOND } from "../../core/time-format.ts";
import { refreshAfter } from "../../device/device-tz.ts";
import { deviceIntervalsOf } from "../../device/device-intervals.ts";
import type { ResolvedName, ZoneTable } from "../../tz/zone-table.ts";
import type { Profile } from "../../time-object/time-object.ts";
import { formatUtc, textLines } from "./transitions-answer.ts";

export interface DeviceTzAnswer {
  posix_tz: string;
  valid_until: string | null;
  refresh_after: string;
}

export interface DeviceAnswer extends DeviceTzAnswer {
  timezone: string;
}

export interface DeviceTzState {
  answer: DeviceTzAnswer;
  /** Unix seconds. */
  validUntil: number | null;
  refreshAfter: number;
}

/** The device string of `name` at unix second `at`. */
export function deviceTz(zones: ZoneTable, name: ResolvedName, at: number, profile: Profile): DeviceTzState {
  const { posixTz, validUntil } = deviceIntervalsOf(zones).at(name.zone, Math.floor(at));
  const refresh = Math.min(LAST_RFC3339_SECOND, refreshAfter(Math.floor(at), validUntil));
  return {
    answer: { posix_tz: posixTz, valid_until: validUntil === null ? null : formatUtc(validUntil, profile), refresh_after: formatUtc(refresh, profile) },
    validUntil,
    refreshAfter: refresh,
  };
}

export function deviceAnswer(zones: ZoneTable, name: ResolvedName, at: number, profile: Profile): { answer: DeviceAnswer; refreshAfter: number } {
  const state = deviceTz(zones, name, at, profile);
  return { answer: { timezone: name.name, ...state.answer }, refreshAfter: state.refreshAfter };
}

export interface DeviceList {
  tzdb_version: string;
  at: string;
  /** The earliest valid_until among the zones (null: none ends). */
  valid_until: string | null;
  /** The earliest refresh_after among the zones. */
  refresh_after: string;
  zones: Record<string, DeviceTzAnswer>;
}

/** Every name's device string at `at`, and the earliest instants among them (unix seconds). */
export function deviceList(zones: ZoneTable, at: number, profile: Profile): { list: DeviceList; refreshAfter: number } {
  const entries: Record<string, DeviceTzAnswer> = {};
  let validUntil = Infinity;
  let refresh = Infinity;
  // A Link's string is its Zone's: each zone is worked out once (597 names, 340 zones in 2026f).
  const byZone = new Map<number, DeviceTzState>();
  for (const name of zones.names) {
    const resolved = zones.resolve(name)!;
    let state = byZone.get(resolved.zone);
    if (state === undefined) byZone.set(resolved.zone, (state = deviceTz(zones, resolved, at, profile)));
    entries[name] = state.answer;
    if (state.validUntil !== null) validUntil = Math.min(validUntil, state.validUntil);
    refresh = Math.min(refresh, state.refreshAfter);
  }
  return {
    list: {
      tzdb_version: zones.tzdbVersion,
      at: formatUtc(Math.floor(at), profile),
      valid_until: validUntil === Infinity ? null : formatUtc(validUntil, profile),
      refresh_after: formatUtc(refresh, profile),
      zones: entries,
    },
    refreshAfter: refresh,
  };
}

/** `.txt`: the list's own lines, then `name: posix_tz` per zone. */
export function deviceListText(list: DeviceList): string {
  let out = textLines(list);
  for (const [name, entry] of Object.entries(list.zones)) out += `${name}: ${entry.posix_tz}\n`;
  return out;
}

/** posix_tz_db's zones.csv: `"Name","TZ"` lines, no header. Neither column can hold a quote. */
export function deviceListCsv(list: DeviceList): string {
  let out = "";
  for (const [name, entry] of Object.entries(list.zones)) out += `"${name}","${entry.posix_tz}"\n`;
  return out;
}
