// Address -> timezone name by binary search over the IP range tables.

import { decodeIpTable, IPV4_FILE, IPV6_FILE, NO_ZONE, type IpTableData } from "../formats/ip-format.ts";
import { mapTable } from "../formats/map-table.ts";
import type { LookupKey } from "./special-ranges.ts";

export interface IpLocator {
  /** The timezone name for a public address, or null where the source has no location. */
  zoneFor(key: Exclude<LookupKey, { version: 0 }>): string | null;
}

export class IpTables implements IpLocator {
  readonly v4: IpTableData;
  readonly v6: IpTableData;

  constructor(v4: IpTableData, v6: IpTableData) {
    this.v4 = v4;
    this.v6 = v6;
  }

  static async load(dir: string): Promise<IpTables> {
    // Mapped read-only (formats/map-table.ts): workers share the pages instead of a copy each.
    const read = (name: string, version: 4 | 6) => {
      const path = `${dir}/${name}`;
      return decodeIpTable(mapTable(path), path, version);
    };
    return new IpTables(await read(IPV4_FILE, 4), await read(IPV6_FILE, 6));
  }

  zoneFor(key: Exclude<LookupKey, { version: 0 }>): string | null {
    const table = key.version === 4 ? this.v4 : this.v6;
    const index = key.version === 4 ? findV4(table.highs, key.value) : findV6(table.highs, table.lows!, key.high, key.low);
    const zone = table.zones[index]!;
    return zone === NO_ZONE ? null : table.names[zone]!;
  }

  get rangeCounts(): { v4: number; v6: number } {
    return { v4: this.v4.highs.length, v6: this.v6.highs.length };
  }
}

/** Largest i with starts[i] <= value (starts[0] is 0, so there always is one). */
function findV4(starts: Uint32Array, value: number): number {
  let lo = 0;
  let hi = starts.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= value) lo = mid;
    else hi = mid;
  }
  return lo;
}

function findV6(highs: Uint32Array, lows: Uint32Array, high: number, low: number): number {
  let lo = 0;
  let hi = highs.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const h = highs[mid]!;
    if (h < high || (h === high && lows[mid]! <= low)) lo = mid;
    else hi = mid;
  }
  return lo;
}
