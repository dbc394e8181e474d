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
import { eachOf, inTurns } from "../../core/in-turns.ts";

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

/** A device list being made: the names added one by one (`deviceList`, or in turns: `deviceListInTurns`). */
class DeviceListBuilder {
  readonly entries: Record<string, DeviceTzAnswer> = {};
  validUntil = Infinity;
  refresh = Infinity;
  // A Link's string is its Zone's: each zone is worked out once (597 names, 340 zones in 2026f).
  private readonly byZone = new Map<number, DeviceTzState>();

  constructor(private readonly zones: ZoneTable, private readonly at: number, private readonly profile: Profile) {}

  readonly add = (name: string): void => {
    const resolved = this.zones.resolve(name)!;
    let state = this.byZone.get(resolved.zone);
    if (state === undefined) this.byZone.set(resolved.zone, (state = deviceTz(this.zones, resolved, this.at, this.profile)));
    this.entries[name] = state.answer;
    if (state.validUntil !== null) this.validUntil = Math.min(this.validUntil, state.validUntil);
    this.refresh = Math.min(this.refresh, state.refreshAfter);
  };

  made(): { list: DeviceList; refreshAfter: number } {
    return {
      list: {
        tzdb_version: this.zones.tzdbVersion,
        at: formatUtc(Math.floor(this.at), this.profile),
        valid_until: this.validUntil === Infinity ? null : formatUtc(this.validUntil, this.profile),
        refresh_after: formatUtc(this.refresh, this.profile),
        zones: this.entries,
      },
      refreshAfter: this.refresh,
    };
  }
}

/** Every name's device string at `at`, and the earliest instants among them (unix seconds). */
export function deviceList(zones: ZoneTable, at: number, profile: Profile): { list: DeviceList; refreshAfter: number } {
  const builder = new DeviceListBuilder(zones, at, profile);
  for (const name of zones.names) builder.add(name);
  return builder.made();
}

/**
 * The same, its names worked out in turns: at an instant no kept stretch holds, each zone
 * walks its rules (device/device-intervals.ts), up to 40 ms for the list on a fresh worker.
 */
export async function deviceListInTurns(zones: ZoneTable, at: number, profile: Profile): Promise<DeviceList> {
  const builder = new DeviceListBuilder(zones, at, profile);
  await inTurns(eachOf(zones.names, builder.add));
  return builder.made().list;
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
